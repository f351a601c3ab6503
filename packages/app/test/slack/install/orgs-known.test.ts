/**
 * An org-wide installation serves requests that name any of the org's workspaces; each workspace
 * is written down once (rememberOrg) so that work outside a request finds the org. What this
 * replica remembers having written is capped: past a few thousand workspaces the oldest is
 * forgotten, and only written down again.
 */
import type { Installation, InstallationQuery } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createInstalledTeams } from '../../../src/slack/install/installation-store.js';
import type { Claims, Installations } from '../../../src/store/index.js';
import { quietLogger } from '../../support/harness.js';

const ORG_INSTALL: Installation<'v2', true> = {
  team: undefined,
  enterprise: { id: 'E0ORG' },
  isEnterpriseInstall: true,
  user: { id: 'U0ADMIN', token: undefined, scopes: undefined },
  bot: { token: 'xoxb-org', scopes: ['commands'], id: 'B0BOT', userId: 'U0BOT' },
};

describe('the workspaces of an org written down', () => {
  it('are capped: after 5,000 workspaces the first is written down again', async () => {
    const remembered: string[] = [];
    const installations: Installations<unknown> = {
      get: async (scope) => (scope.isEnterpriseInstall ? ORG_INSTALL : undefined),
      set: async () => undefined,
      delete: async () => false,
      rememberOrg: async (teamId) => {
        remembered.push(teamId);
      },
      orgOf: async () => undefined,
    };
    const teams = createInstalledTeams({
      installations,
      claims: {} as Claims,
      refresh: () => Promise.reject(new Error('no refresh expected')),
      now: Date.now,
      logger: quietLogger(),
    });
    // What Bolt asks for a request from one of the org's workspaces.
    const fetchFor = (teamId: string) => {
      const query: InstallationQuery<boolean> = {
        teamId,
        enterpriseId: 'E0ORG',
        isEnterpriseInstall: true,
      };
      return teams.fetchInstallation(query);
    };

    for (let i = 0; i < 5_000; i++) await fetchFor(`T${i}`);
    expect(remembered).toHaveLength(5_000);
    await fetchFor('T4999');
    expect(remembered).toHaveLength(5_000);
    await fetchFor('T0');
    expect(remembered).toHaveLength(5_001);
  });
});
