import type { App } from '@slack/bolt';
import { VIEWS } from '../../../render/ids.ts';
import type { ListenerDeps } from '../deps.ts';
import { connectView } from './connect.ts';
import { createCommentView } from './createComment.ts';
import { createPostView } from './createPost.ts';
import { resolvePostView } from './resolvePost.ts';

export function registerViews(app: App, deps: ListenerDeps): void {
  app.view({ type: 'view_submission', callback_id: VIEWS.createPost }, createPostView(deps));
  app.view({ type: 'view_submission', callback_id: VIEWS.createComment }, createCommentView(deps));
  app.view({ type: 'view_submission', callback_id: VIEWS.resolvePost }, resolvePostView(deps));
  app.view({ type: 'view_submission', callback_id: VIEWS.connect }, connectView(deps));
}
