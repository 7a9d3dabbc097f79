/**
 * The identifiers Slack sends back to us: action ids of buttons, callback ids of modals and
 * shortcuts, block ids of inputs. Render builds with them, listeners match them, and the
 * manifest names the shortcuts; a test keeps the three in step.
 */
export const ACTIONS = {
  /** post card buttons; value: JSON of CardAction */
  resolve: 'post_resolve',
  reopen: 'post_reopen',
  comment: 'post_comment',
  /** list paging buttons; value: a page-state id (see store) */
  pageNext: 'list_next',
  pagePrev: 'list_prev',
  /** external select of collaboration channels in the post modal */
  channelPicker: 'channel_picker',
  /** a link button that opens the post in the service: Slack still sends an action, which we ack */
  openPost: 'post_open',
} as const;

export const VIEWS = {
  createPost: 'post_create',
  createComment: 'comment_create',
  resolvePost: 'post_resolve',
} as const;

export const SHORTCUTS = {
  createPostFromMessage: 'create_post_from_message',
  commentOnPost: 'comment_on_post',
  resolvePost: 'resolve_post',
} as const;

/** Block and action ids of modal inputs, read back from `view.state.values[block][action]`. */
export const INPUTS = {
  channel: { block: 'channel', action: ACTIONS.channelPicker },
  title: { block: 'title', action: 'title_input' },
  content: { block: 'content', action: 'content_input' },
  comment: { block: 'comment', action: 'comment_input' },
  resolution: { block: 'resolution', action: 'resolution_input' },
} as const;
