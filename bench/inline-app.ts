/**
 * The baseline of the ack benchmark: a minimal Bolt app that does the work inline, calling the
 * collaboration API before it acks — what a bridge without a queue does.
 */
import { App, LogLevel } from '@slack/bolt';
import { createCollabClient } from '../src/collab/client.ts';

const env = process.env;
const collab = createCollabClient({
  baseUrl: env.COLLAB_API_URL!,
  apiKey: env.COLLAB_API_KEY!,
  connections: 256,
});
const app = new App({
  signingSecret: env.SLACK_SIGNING_SECRET!,
  token: env.SLACK_BOT_TOKEN!,
  botId: 'B_BENCH',
  botUserId: 'U_BOT',
  clientOptions: { slackApiUrl: env.SLACK_API_URL! },
  logLevel: LogLevel.ERROR,
});
app.command(env.SLASH_COMMAND ?? '/collab', async ({ command, ack }) => {
  try {
    const post = await collab.getPost(command.text.split(' ')[1] ?? 'none');
    await ack({ response_type: 'ephemeral', text: `Resolved ${post.id}` });
  } catch {
    await ack({ response_type: 'ephemeral', text: 'failed' });
  }
});
await app.start(Number(env.PORT));
process.send?.('ready');
process.on('SIGTERM', () => {
  void app.stop().finally(() => process.exit(0));
});
