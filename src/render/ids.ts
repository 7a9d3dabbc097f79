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
  /** App Home: connect (or reconnect) the workspace to the service; disconnect it */
  connect: 'settings_connect',
  disconnect: 'settings_disconnect',
  /** App Home quick actions: open the post form; show the help */
  homeNewPost: 'home_new_post',
  homeHelp: 'home_help',
  homeNotify: 'home_notify',
} as const;

export const VIEWS = {
  createPost: 'post_create',
  createComment: 'comment_create',
  resolvePost: 'post_resolve',
  /** the connect modal of App Home: base url and API key */
  connect: 'settings_connect_modal',
} as const;

export const SHORTCUTS = {
  /** global: the composer's shortcuts menu, anywhere */
  newPost: 'new_post',
  createPostFromMessage: 'create_post_from_message',
  createPostFromThread: 'create_post_from_thread',
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
  baseUrl: { block: 'base_url', action: 'base_url_input' },
  apiKey: { block: 'api_key', action: 'api_key_input' },
} as const;
