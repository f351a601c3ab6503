/**
 * The sandbox's demo workspace. Its people carry the same e-mails as the expense emulator's demo
 * data set (`npm run emulator -- --seed`), so that a person here is recognised there: Ada, Grace
 * and Alan have accounts; Katherine was only invited by e-mail.
 */
import type { Channel, ChannelInput, Team, User, UserInput } from './types.js';

/** The part of a workspace that seeding uses (kept here so this module needs nothing above it). */
export interface Seedable {
  readonly team: Team;
  user(id: string): User | undefined;
  addUser(user: UserInput): User;
  channel(id: string): Channel | undefined;
  addChannel(channel: ChannelInput): Channel;
  dmChannel(userId: string): string;
}

export const DEMO_PEOPLE: UserInput[] = [
  {
    id: 'U0ADA',
    name: 'ada',
    display_name: 'Ada',
    real_name: 'Ada Lovelace',
    email: 'ada@example.com',
    tz: 'Europe/London',
    locale: 'en-GB',
  },
  {
    id: 'U0GRACE',
    name: 'grace',
    display_name: 'Grace',
    real_name: 'Grace Hopper',
    email: 'grace@example.com',
    tz: 'America/New_York',
    locale: 'en-US',
  },
  {
    id: 'U0ALAN',
    name: 'alan',
    display_name: 'Alan',
    real_name: 'Alan Turing',
    email: 'alan@example.com',
    tz: 'Europe/Berlin',
    locale: 'de-DE',
  },
  {
    id: 'U0KATHERINE',
    name: 'katherine',
    display_name: 'Katherine',
    real_name: 'Katherine Johnson',
    email: 'katherine@example.com',
    tz: 'America/Chicago',
    locale: 'en-US',
  },
];

export const DEMO_CHANNELS = [
  { id: 'C0001', name: 'general' },
  { id: 'C0LUNCH', name: 'lunch' },
  /** Meant to be bound to the emulator's demo group "Lisbon trip". */
  { id: 'C0LISBON', name: 'lisbon-trip' },
];

/** Adds the demo team's people, channels and each person's DM with the app; safe to run twice. */
export function seedDemoWorkspace(ws: Seedable): void {
  for (const person of DEMO_PEOPLE) {
    if (!ws.user(person.id)) ws.addUser({ ...person, team_id: ws.team.id });
  }
  for (const channel of DEMO_CHANNELS) {
    if (ws.channel(channel.id)) continue;
    ws.addChannel({ ...channel, is_private: false, botIsMember: true });
  }
  for (const person of DEMO_PEOPLE) ws.dmChannel(person.id);
}
