import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BOT_SCOPES } from '../../../src/slack/install/installer.js';

describe('the scopes an install asks for', () => {
  it('are the bot scopes of manifest.yml, so that an install grants what the app uses', () => {
    const manifest = parse(readFileSync('manifest.yml', 'utf8')) as {
      oauth_config: { scopes: { bot: string[] } };
    };
    expect([...BOT_SCOPES].sort()).toEqual([...manifest.oauth_config.scopes.bot].sort());
  });
});
