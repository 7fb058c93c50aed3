package fast

// NearOneSweep is nearOneSweep for the sweeps of package fast_test.
var NearOneSweep = nearOneSweep
