module example.com/downstream

go 1.26

require github.com/rdpcheck/rdpcheck v0.0.0-00010101000000-000000000000

require github.com/ALTree/bigfloat v0.2.0 // indirect

// The repository this example lives in: the module as a downstream
// project would use it, at the commit checked out.
replace github.com/rdpcheck/rdpcheck => ../..
