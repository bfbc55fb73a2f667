type Node = { value: unknown; key: string | number | null; parent: Node | null };

const pathOf = (node: Node): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let n: Node | null = node; n && n.key !== null; n = n.parent) path.unshift(n.key);
  return path;
};

/**
 * Where a parsed JSON value (or query) holds a string that is not well-formed UTF-16: a lone
 * surrogate, which JSON's `\ud800` escape can carry. Such text cannot be stored (Firestore
 * refuses it) nor sent back as UTF-8, so it is refused where it enters. Answers the path of the
 * first one (a field name itself ill-formed ends the path with `null`), or undefined. Walks
 * without recursion, so a deeply nested body cannot exhaust the stack.
 */
export function illFormedTextAt(value: unknown): (string | number | null)[] | undefined {
  const stack: Node[] = [{ value, key: null, parent: null }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const node = next;
    const v = node.value;
    if (typeof v === "string") {
      if (!v.isWellFormed()) return pathOf(node);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, key: i, parent: node }));
    } else if (typeof v === "object" && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        if (!key.isWellFormed()) return [...pathOf(node), null];
        stack.push({ value: item, key, parent: node });
      }
    }
  }
  return undefined;
}
