import { Timestamp } from "firebase-admin/firestore";

/** mulberry32: a tiny deterministic PRNG, so `npm run seed` always writes the same dataset. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The dataset's "now": fixed, so the data does not change from run to run. */
export const DEMO_NOW = Date.parse("2026-11-01T00:00:00Z");
const DAY = 86_400_000;

export const daysAgo = (days: number, minutes = 0) =>
  Timestamp.fromMillis(DEMO_NOW - days * DAY + minutes * 60_000);
export const pad = (n: number, width = 4) => String(n).padStart(width, "0");
