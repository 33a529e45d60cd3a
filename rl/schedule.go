package rl

import "github.com/credo-rl/credo/optim"

// Schedule is the learning-rate schedule of warm-up and RL training
// (optim.Schedule, shared with the PRM's trainer).
type Schedule = optim.Schedule
