package rl

import "github.com/credo-rl/credo/model"

// Schedule is the learning-rate schedule of warm-up and RL training
// (model.Schedule, shared with the PRM's trainer).
type Schedule = model.Schedule
