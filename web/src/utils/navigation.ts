/** Navigation reachable from plain modules; the router installs its own navigate. */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigateImpl: Navigate = (to, options) => {
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
};

export function setNavigate(next: Navigate): void {
  navigateImpl = next;
}

export function navigate(to: string, options?: { replace?: boolean }): void {
  navigateImpl(to, options);
}

/** /login, carrying the proxyToken query of the current address when there is one (SPEC §9). */
export function loginPath(extra?: Record<string, string>): string {
  const params = new URLSearchParams();
  const proxyToken = new URLSearchParams(window.location.search).get('proxyToken');
  if (proxyToken) params.set('proxyToken', proxyToken);
  for (const [k, v] of Object.entries(extra ?? {})) params.set(k, v);
  const query = params.toString();
  return query ? `/login?${query}` : '/login';
}
