/**
 * One Bolt listener for all the handlers of a kind (actions, views, shortcuts, events), each
 * looked up by its id. Bolt runs the matchers of every registered listener for every request,
 * copying the request's arguments for each matcher it calls: with a listener per id, a slash
 * command went through some forty chains before its own (a sixth of a busy web role's CPU).
 * An id without a handler is left alone, as when no listener matched.
 */
export function routeBy<A>(
  idOf: (args: A) => string | undefined,
  handlers: Iterable<readonly [string, (args: A) => Promise<void>]>,
): Route<A> {
  const table = new Map<string, Array<(args: A) => Promise<void>>>();
  for (const [id, handler] of handlers) table.set(id, [...(table.get(id) ?? []), handler]);
  const route = async (args: A) => {
    const id = idOf(args);
    for (const handler of (id === undefined ? undefined : table.get(id)) ?? []) await handler(args);
  };
  return Object.assign(route, { ids: [...table.keys()] });
}

/** A routing listener, and the ids it answers (the manifest must declare them). */
export type Route<A> = ((args: A) => Promise<void>) & { readonly ids: readonly string[] };
