import type { AllMiddlewareArgs, App, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { VIEWS } from '../../../render/ids.ts';
import type { ListenerDeps } from '../deps.ts';
import { routeBy } from '../route.ts';
import { connectView } from './connect.ts';
import { createCommentView } from './createComment.ts';
import { createPostView } from './createPost.ts';
import { resolvePostView } from './resolvePost.ts';

export function registerViews(app: App, deps: ListenerDeps): void {
  const handlers: Array<readonly [string, Handler]> = [
    [VIEWS.createPost, createPostView(deps)],
    [VIEWS.createComment, createCommentView(deps)],
    [VIEWS.resolvePost, resolvePostView(deps)],
    [VIEWS.connect, connectView(deps)],
  ];
  app.view(
    { type: 'view_submission' },
    routeBy((args: Args) => args.view.callback_id, handlers),
  );
}

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
type Handler = (args: Args) => Promise<void>;
