/**
 * The fake Slack Web API the tests have always used: the simulated workspace (src/workspace) in
 * its lenient mode, so tests that build their own payloads may use trigger ids and response_urls
 * the workspace did not issue. `url` is the Web API base (SLACK_API_URL), as before.
 */
import {
  DEFAULT_SCOPES,
  startWorkspace,
  type Workspace,
  type WorkspaceOptions,
} from '@split/slack-workspace';

export type {
  Channel as FakeChannel,
  RecordedCall,
  ResponseUrlPost,
  ScheduledMessage,
  StoredFile as FakeFile,
  StoredMessage as FakeMessage,
  StoredView as FakeView,
  Team as FakeTeam,
  User as FakeUser,
  UserInput as FakeUserInput,
} from '@split/slack-workspace';
export { DEFAULT_SCOPES };

export type StartFakeSlackOptions = Pick<
  WorkspaceOptions,
  'defaultTeam' | 'defaultChannel' | 'eventRetryDelaysMs' | 'ackTimeoutMs'
>;

/** The workspace with `url` meaning the Web API base, as the tests expect. */
export type FakeSlack = Workspace;

export async function startFakeSlack(options: StartFakeSlackOptions = {}): Promise<FakeSlack> {
  const workspace = await startWorkspace({ ...options, strict: false });
  return Object.create(workspace, {
    url: { value: workspace.apiUrl, enumerable: true },
  }) as FakeSlack;
}
