/**
 * Per-instance memory that cannot grow without bound (an attacker chooses the keys).
 *
 * `setBounded`: sets `key` as the newest entry of `map`, forgetting the oldest when `max` are
 * held (Map keeps insertion order).
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/**
 * A "first time?" test for log lines written once per cause: true the first time a key is
 * seen, false after. Past `max` keys it starts over (a cause may then be logged once more).
 */
export function firstTimeFilter(max: number): (key: string) => boolean {
  const seen = new Set<string>();
  return (key) => {
    if (seen.has(key)) return false;
    if (seen.size >= max) seen.clear();
    seen.add(key);
    return true;
  };
}
