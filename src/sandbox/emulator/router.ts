/**
 * A tiny path router: templates in the spec's own notation (`/v2/posts/{post_id}/comments`),
 * matched per method. A route's name is `METHOD template`, e.g. `POST /v2/posts/{post_id}/comments`:
 * it labels received requests and is what fault rules match.
 */
export interface RouteDefinition<H> {
  method: string;
  template: string;
  handler: H;
}

export interface RouteMatch<H> {
  /** e.g. `GET /v2/posts/{id}` */
  name: string;
  handler: H;
  params: Record<string, string>;
}

export type RouteLookup<H> =
  | { kind: 'found'; match: RouteMatch<H> }
  | { kind: 'methodNotAllowed'; allowed: string[] }
  | { kind: 'notFound' };

interface CompiledRoute<H> extends RouteDefinition<H> {
  pattern: RegExp;
  paramNames: string[];
}

export class Router<H> {
  readonly #routes: CompiledRoute<H>[];

  constructor(routes: readonly RouteDefinition<H>[]) {
    this.#routes = routes.map((route) => {
      const paramNames: string[] = [];
      const source = route.template
        .split('/')
        .map((segment) => {
          const param = /^\{(\w+)\}$/.exec(segment);
          if (!param?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          paramNames.push(param[1]);
          return '([^/]+)';
        })
        .join('/');
      return { ...route, pattern: new RegExp(`^${source}/?$`), paramNames };
    });
  }

  get names(): string[] {
    return this.#routes.map((route) => `${route.method} ${route.template}`);
  }

  lookup(method: string, path: string): RouteLookup<H> {
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.paramNames.forEach((name, index) => {
        params[name] = safeDecode(found[index + 1] ?? '');
      });
      return {
        kind: 'found',
        match: { name: `${route.method} ${route.template}`, handler: route.handler, params },
      };
    }
    return allowed.length > 0 ? { kind: 'methodNotAllowed', allowed } : { kind: 'notFound' };
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
