// Sample-rate conversion by polyphase windowed-sinc (Hann window, 8 zero crossings): clean enough for speech.

const ZERO_CROSSINGS = 8;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

function windowedSinc(x: number): number {
  if (Math.abs(x) >= ZERO_CROSSINGS) return 0;
  const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
  return sinc * 0.5 * (1 + Math.cos((Math.PI * x) / ZERO_CROSSINGS));
}

/**
 * Output sample i sits at input position i·M/L; its fractional part repeats with period L, so
 * one row of filter taps per phase is computed once and the inner loop is a plain dot product.
 */
function phaseTable(up: number, _down: number, cutoff: number, taps: number, first: number): Float32Array {
  const table = new Float32Array(up * taps);
  for (let p = 0; p < up; p++) {
    const frac = p / up;
    for (let j = 0; j < taps; j++) table[p * taps + j] = cutoff * windowedSinc((frac - (first + j)) * cutoff);
  }
  return table;
}

/** Returns the input itself when the rates match; otherwise a new array of round(n·to/from) samples. */
export function resample(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (!(Number.isInteger(fromRate) && Number.isInteger(toRate) && fromRate > 0 && toRate > 0)) {
    throw new RangeError(`sample rates must be positive integers, got ${fromRate} → ${toRate}`);
  }
  if (fromRate === toRate) return samples;
  const g = gcd(fromRate, toRate);
  const up = toRate / g;
  const down = fromRate / g;
  // Downsampling lowers the cut-off below the new Nyquist frequency so nothing folds back as aliasing.
  const cutoff = Math.min(1, toRate / fromRate) * 0.95;
  const reach = Math.ceil(ZERO_CROSSINGS / cutoff);
  const first = -reach + 1; // taps cover input offsets first..reach around floor(position)
  const taps = 2 * reach;
  const table = phaseTable(up, down, cutoff, taps, first);
  const n = samples.length;
  const out = new Float32Array(Math.round((n * up) / down));
  for (let i = 0; i < out.length; i++) {
    const base = Math.floor((i * down) / up);
    const row = ((i * down) % up) * taps;
    const start = base + first;
    let sum = 0;
    if (start >= 0 && start + taps <= n) {
      for (let j = 0; j < taps; j++) sum += samples[start + j]! * table[row + j]!;
    } else {
      for (let j = Math.max(0, -start); j < taps && start + j < n; j++) sum += samples[start + j]! * table[row + j]!;
    }
    out[i] = sum;
  }
  return out;
}
