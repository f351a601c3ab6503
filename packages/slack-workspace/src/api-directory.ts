/** Web API: auth, team, users, conversations and files methods. */
import type { Method } from './api-chat.js';
import { fileObject } from './api-files.js';
import { optionalStr, SlackError, str } from './http-util.js';
import type { WorkspaceState } from './state.js';
import type { User } from './types.js';

function tzOffsetSeconds(tz: string, at: number): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? '');
  if (!match) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60;
  return match[1] === '-' ? -seconds : seconds;
}

function tzLabel(tz: string, at: number): string {
  return (
    new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'long' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? tz
  );
}

export function userObject(user: User, withEmail: boolean, at: number) {
  const profile: Record<string, unknown> = {
    real_name: user.real_name,
    display_name: user.display_name,
    real_name_normalized: user.real_name,
    display_name_normalized: user.display_name,
    first_name: user.real_name.split(' ')[0],
    last_name: user.real_name.split(' ').slice(1).join(' '),
    image_72: `https://avatars.example/${user.id}_72.png`,
    team: user.team_id,
  };
  if (withEmail && user.email !== undefined) profile.email = user.email;
  return {
    id: user.id,
    team_id: user.team_id,
    name: user.name,
    deleted: user.deleted,
    real_name: user.real_name,
    tz: user.tz,
    tz_label: tzLabel(user.tz, at),
    tz_offset: tzOffsetSeconds(user.tz, at),
    profile,
    is_admin: false,
    is_owner: false,
    is_bot: user.is_bot,
    is_app_user: false,
    updated: Math.floor(at / 1000),
  };
}

export function directoryMethods(state: WorkspaceState): Record<string, Method> {
  return {
    'api.test': (args) => ({ args }),
    'auth.test': (_args, team) => ({
      url: `https://${team.domain}.slack.com/`,
      team: team.name,
      user: 'splitbot',
      team_id: team.id,
      user_id: team.botUserId,
      bot_id: team.botId,
      is_enterprise_install: false,
    }),
    'team.info': (_args, team) => ({
      team: { id: team.id, name: team.name, domain: team.domain, email_domain: '', icon: {} },
    }),
    'users.info': (args, team) => {
      const user = state.users.get(str(args, 'user'));
      if (!user) throw new SlackError('user_not_found');
      if (user.team_id !== team.id) throw new SlackError('user_not_visible');
      const json: Record<string, unknown> = userObject(
        user,
        team.scopes.includes('users:read.email'),
        state.now(),
      );
      // A boolean, which @slack/web-api sends as the string "true"; without it, no locale.
      const withLocale = [true, 'true', '1', 1].includes(args.include_locale as string);
      if (withLocale) json.locale = user.locale;
      return { user: json };
    },
    'users.lookupByEmail': (args, team) => {
      const email = str(args, 'email').toLowerCase();
      const user = [...state.users.values()].find(
        (u) => u.team_id === team.id && u.email?.toLowerCase() === email && !u.deleted,
      );
      if (!user) throw new SlackError('users_not_found');
      return { user: userObject(user, true, state.now()) };
    },
    'conversations.open': (args, team) => {
      const channelArg = optionalStr(args, 'channel');
      if (channelArg) {
        const channel = state.channels.get(channelArg);
        if (!channel?.is_im) throw new SlackError('channel_not_found');
        return { no_op: true, already_open: true, channel: { id: channel.id } };
      }
      const ids = str(args, 'users')
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean);
      if (ids.length !== 1) throw new SlackError('not_implemented');
      const user = state.users.get(ids[0]!);
      if (!user || user.team_id !== team.id) throw new SlackError('user_not_found');
      if (user.deleted) throw new SlackError('user_disabled');
      const already = state.dms.has(user.id);
      const id = state.dmChannel(user.id);
      if (args.return_im === 'true' || args.return_im === true) {
        return {
          no_op: already,
          already_open: already,
          channel: {
            id,
            created: Math.floor(state.now() / 1000),
            is_im: true,
            user: user.id,
            is_open: true,
          },
        };
      }
      return { no_op: already, already_open: already, channel: { id } };
    },
    'files.info': (args, team) => {
      const file = state.files.get(str(args, 'file'));
      if (!file) throw new SlackError('file_not_found');
      return { file: fileObject(state, file, team) };
    },
  };
}
