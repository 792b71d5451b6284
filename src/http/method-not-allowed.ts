interface RoutePattern {
  method: string;
  regex: RegExp;
}

/**
 * Knows every documented (method, path) pair so an unmatched request can be told apart: a path
 * that exists with other methods answers 405 with `Allow`, anything else 404.
 */
export class RouteTable {
  private readonly patterns: RoutePattern[];

  constructor(routes: readonly { method: string; path: string }[]) {
    this.patterns = routes.map((r) => ({
      method: r.method.toUpperCase(),
      regex: new RegExp(`^${r.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));
  }

  /** Methods that answer at `path`, sorted; empty when no route has this path. */
  allowedMethods(path: string): string[] {
    const methods = new Set(this.patterns.filter((p) => p.regex.test(path)).map((p) => p.method));
    return [...methods].sort();
  }
}
