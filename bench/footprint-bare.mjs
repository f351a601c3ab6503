/**
 * The smallest Bolt app configured as the real one is: HTTP mode on PORT, the Web API at
 * SLACK_API_URL (auth.test at start), /healthz as a custom route. Plain JavaScript so that node
 * runs it with no loader, as it runs packages/app/dist/main.js; bench/footprint.ts compares the two.
 */
import bolt from '@slack/bolt';

const app = new bolt.App({
  token: process.env.SLACK_BOT_TOKEN,
  signingSecret: process.env.SLACK_SIGNING_SECRET,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
  customRoutes: [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      },
    },
  ],
});
app.command('/split', async ({ ack }) => ack());

await app.start(Number(process.env.PORT ?? 3000));
app.logger.info(`bare Bolt app running (HTTP) on port ${process.env.PORT}`);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => app.stop().then(() => process.exit(0)));
}
