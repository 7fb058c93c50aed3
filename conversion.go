package rdpcheck

import "fmt"

// Conversion selects an RDP to (eps, delta)-DP conversion. fast.Conversion
// and reference.Conversion are aliases of it, so one value serves both.
type Conversion int

const (
	// Classic is Mironov 2017, Proposition 3: eps = rdp + log(1/delta)/(alpha-1).
	Classic Conversion = iota
	// Improved is Canonne, Kamath, Steinke 2020 (Proposition 12 of Balle et
	// al. 2020, arXiv 2004.00010, is equivalent):
	// eps = rdp + log1p(-1/alpha) - (log delta + log alpha)/(alpha-1).
	Improved
)

// Valid reports whether v is one of the conversions above; the functions
// that take a Conversion reject any other value with an InputError.
func (v Conversion) Valid() bool { return v == Classic || v == Improved }

// String returns "classic", "improved", or "Conversion(n)" for other values.
func (v Conversion) String() string {
	switch v {
	case Classic:
		return "classic"
	case Improved:
		return "improved"
	}
	return fmt.Sprintf("Conversion(%d)", int(v))
}

// ParseConversion returns the conversion named s, as String names it
// ("classic", "improved"); any other name gives Conversion(-1), which
// Valid rejects, so that a function handed it refuses it as it refuses
// any unknown conversion.
func ParseConversion(s string) Conversion {
	for _, v := range []Conversion{Classic, Improved} {
		if s == v.String() {
			return v
		}
	}
	return Conversion(-1)
}
