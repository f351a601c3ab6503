// The app's previews of the links in a message (chat.unfurl), under the message as Slack shows
// them: its Block Kit blocks, whose buttons send block_actions naming the unfurl, or a legacy
// attachment's title and text.
import { useMemo } from 'preact/hooks';
import { Blocks } from '../blocks/blocks.js';
import { Mrkdwn } from '../blocks/text.js';
import {
  contentVersion,
  type SurfaceHooks,
  type SurfaceValues,
  surfaceContext,
} from '../surface.js';
import type { Message, State, Unfurl } from '../types.js';

/** Only web links open from a preview's title; anything else shows as text. */
function webLink(url: string | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

function UnfurlView(props: {
  state: State;
  message: Message;
  unfurl: Unfurl;
  values: SurfaceValues;
  hooks: SurfaceHooks;
}) {
  const { state, message, unfurl } = props;
  const blocks = unfurl.blocks ?? [];
  const version = useMemo(() => contentVersion(blocks), [blocks]);
  const ctx = surfaceContext({
    state,
    surface: 'message',
    container: {
      type: 'message',
      channel: message.channel,
      ts: message.ts,
      unfurl_url: unfurl.url,
    },
    blocks,
    values: props.values,
    hooks: props.hooks,
    version,
  });
  const link = webLink(unfurl.title_link);
  return (
    <section class="unfurl" aria-label={`Preview of ${unfurl.url}`}>
      <div class="unfurl-app">{state.app.name}</div>
      {blocks.length ? (
        <Blocks key={version} blocks={blocks} ctx={ctx} />
      ) : (
        <>
          {unfurl.title ? (
            <div class="unfurl-title">
              {link ? (
                <a href={link} target="_blank" rel="noopener noreferrer">
                  {unfurl.title}
                </a>
              ) : (
                unfurl.title
              )}
            </div>
          ) : null}
          {unfurl.text ? <Mrkdwn text={unfurl.text} ctx={ctx} /> : null}
        </>
      )}
    </section>
  );
}

export function Unfurls(props: {
  state: State;
  message: Message;
  values: SurfaceValues;
  hooks: SurfaceHooks;
}) {
  const unfurls = props.message.unfurls ?? [];
  if (unfurls.length === 0) return null;
  return (
    <div class="msg-unfurls">
      {unfurls.map((unfurl) => (
        <UnfurlView key={unfurl.url} {...props} unfurl={unfurl} />
      ))}
    </div>
  );
}
