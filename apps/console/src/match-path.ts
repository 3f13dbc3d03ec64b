/** Matches `/console/portals/:portalId/errors` style patterns; answers the parameters or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const regex = new RegExp(`^${pattern.replace(/:([a-zA-Z]+)/g, (_m, name: string) => (names.push(name), '([^/]+)'))}/?$`);
  const match = regex.exec(path);
  if (!match) return null;
  try {
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
  } catch {
    return null; // a broken escape (a link cut short): no page matches, rather than a blank one
  }
}
