"""A DP-SGD event as phases, for the accountants that take only runs of the Poisson-subsampled Gaussian
(prv_accountant, Opacus): SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps), a bare
PoissonSampledDpEvent of a GaussianDpEvent (one step), or a ComposedDpEvent of such, under ADD_OR_REMOVE_ONE.
Anything else raises NotImplementedError: the accountant cannot express it (counted as unsupported)."""


def phases(event, rel):
    if rel != "ADD_OR_REMOVE_ONE":
        raise NotImplementedError("these accountants take add/remove neighbours only, not " + rel)
    out = []

    def walk(e, n):
        c = e["class_name"]
        if c == "SelfComposedDpEvent":
            walk(e["event"], n * e["count"])
        elif c == "ComposedDpEvent":
            for s in e["events"]:
                walk(s, n)
        elif c == "PoissonSampledDpEvent" and e["event"]["class_name"] == "GaussianDpEvent":
            out.append({"q": e["sampling_probability"], "sigma": e["event"]["noise_multiplier"], "steps": n})
        else:
            raise NotImplementedError("not a DP-SGD event: " + c)

    walk(event, 1)
    return out
