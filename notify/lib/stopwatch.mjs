// Where an alert's time goes, stage by stage (the stagesMs of messages.jsonl).

/** lap(name) records the ms since the previous lap (or the start) under name; lap.stages holds them. */
export function stopwatch() {
  let last = performance.now();
  const lap = (name) => {
    const t = performance.now();
    lap.stages[name] = Math.round(t - last);
    last = t;
  };
  lap.stages = {};
  return lap;
}
