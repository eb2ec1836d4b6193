/** Every route declared by the area modules (router/modules/*.ts), collected once. */
import type { AppRoute } from './types';

const modules = import.meta.glob<{ default: AppRoute[] }>('./modules/*.ts', { eager: true });

export const appRoutes: AppRoute[] = Object.values(modules).flatMap((m) => m.default);
export const publicRoutes = appRoutes.filter((r) => r.meta.layout === false);
export const layoutRoutes = appRoutes.filter((r) => r.meta.layout !== false);
export const routeByPath = new Map(appRoutes.map((r) => [r.path, r]));
