/**
 * A rate per key (a token): a bucket that fills at `perSecond` up to `burst`, one request taking
 * one. Pure apart from the clock it is given; it keeps a bucket only for keys seen lately.
 */

export interface Rate {
  /** Requests per second, sustained. */
  perSecond: number;
  /** Requests at once, after a quiet while. */
  burst: number;
}

export const DEFAULT_RATE: Rate = { perSecond: 200, burst: 1000 };

export interface RateLimit {
  /** The most requests taken at once, after a quiet while. */
  readonly burst: number;
  /** Takes `n` requests (one) for `key`, all or none: 0 when they may go on, else the ms until they may. */
  take(key: string, n?: number): number;
}

export function createRateLimit(rate: Rate, now: () => number = Date.now): RateLimit {
  const buckets = new Map<string, { level: number; at: number }>();
  let sweptAt = now();
  return {
    burst: rate.burst,
    take(key, n = 1) {
      const t = now();
      // A bucket full again is the same as none: forgotten, so that keys seen once do not pile up.
      if (t - sweptAt > 60_000) {
        sweptAt = t;
        for (const [k, b] of buckets) if (b.level + ((t - b.at) * rate.perSecond) / 1000 >= rate.burst) buckets.delete(k);
      }
      const bucket = buckets.get(key) ?? { level: rate.burst, at: t };
      bucket.level = Math.min(rate.burst, bucket.level + ((t - bucket.at) * rate.perSecond) / 1000);
      bucket.at = t;
      buckets.set(key, bucket);
      if (bucket.level >= n) {
        bucket.level -= n;
        return 0;
      }
      return Math.ceil(((Math.min(n, rate.burst) - bucket.level) * 1000) / rate.perSecond);
    },
  };
}
