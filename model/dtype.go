package model

import "fmt"

// Weights are stored as F32, BF16 or F16 and always computed in float32.
// Storage dtype names: safetensors' ("BF16") in files, PyTorch's
// ("bfloat16") in config.json. Converting values between them is
// model/hf's; the model only keeps each weight's storage name.

var torchNames = map[string]string{"F32": "float32", "BF16": "bfloat16", "F16": "float16"}

// StorageDType maps a config's torch_dtype to a safetensors dtype ("bfloat16"
// → "BF16"); "" means float32.
func StorageDType(torch string) (string, error) {
	if torch == "" {
		return "F32", nil
	}
	for st, name := range torchNames {
		if name == torch {
			return st, nil
		}
	}
	return "", fmt.Errorf("torch_dtype %q is not supported (want float32, bfloat16 or float16)", torch)
}

// TorchDType maps a safetensors storage dtype to its torch_dtype ("BF16"
// → "bfloat16"); ok is false for a dtype weights are not stored in
// (anything but F32, BF16 and F16).
func TorchDType(storage string) (torch string, ok bool) {
	torch, ok = torchNames[storage]
	return torch, ok
}
