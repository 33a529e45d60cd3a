package main

// modeFlag binds a string-typed setting (credit.CapMode, credit.JSForm, …)
// to a flag. Unlike flag.Func its String is the current value, so
// applyConfigFile can set it again after loading a config file.
type modeFlag[T ~string] struct{ v *T }

func (f modeFlag[T]) String() string {
	if f.v == nil {
		return ""
	}
	return string(*f.v)
}

func (f modeFlag[T]) Set(s string) error { *f.v = T(s); return nil }
