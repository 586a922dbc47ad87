// The panel answers an event in a later frame (React's next render, a scroll event), so a test
// reads the page until it shows the answer, within a bound, and then asserts on what it read.

/** read() until ok(value) holds or timeoutMs has passed; returns the last value read. */
export async function settled(read, ok, { timeoutMs = 10_000, everyMs = 50 } = {}) {
  const t0 = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() - t0 >= timeoutMs) {
      return v;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
