/** what only the timing model measures: what a report made with `timing: false` (profile --no-timing) lacks */
export const TIMING_ONLY = 'durations, cycles, throughputs, stall reasons and achieved occupancy';
