import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { inheritedByDefault, inheritedEnvNames, serverEnvironment } from '../../../src/core/process/serverEnvironment.js';

const host = {
  PATH: '/usr/bin',
  HOME: '/home/u',
  LANG: 'de_DE.UTF-8',
  LC_TIME: 'C',
  TZ: 'Asia/Tokyo',
  TMPDIR: '/tmp/u',
  XDG_CONFIG_HOME: '/home/u/.config',
  HTTPS_PROXY: 'http://proxy:3128',
  https_proxy: 'http://proxy:3128',
  NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
  OPENAI_API_KEY: 'sk-secret',
  AWS_PROFILE: 'work',
  BASH_FUNC_x: '() { echo hi; }',
  LC_EVIL: '() { echo hi; }',
};

describe('serverEnvironment', () => {
  it('starts from the SDK’s own list for this system', () => {
    expect(inheritedEnvNames().slice(0, DEFAULT_INHERITED_ENV_VARS.length)).toEqual(DEFAULT_INHERITED_ENV_VARS);
  });

  it('passes the documented list (and the LC_ family), never anything else of the host, and never a bash function', () => {
    const passed = ['PATH', 'HOME', 'LANG', 'LC_TIME', 'TZ', 'TMPDIR', 'XDG_CONFIG_HOME', 'HTTPS_PROXY', 'https_proxy', 'NODE_EXTRA_CA_CERTS'] as const;
    expect(serverEnvironment(host, undefined, {})).toEqual(Object.fromEntries(passed.map((name) => [name, host[name]])));
  });

  it('refuses a name with "=" (it would set another variable: NODE_OPTIONS past every check of names) or NUL, wherever it came from', () => {
    expect(() => serverEnvironment(host, undefined, { 'NODE_OPTIONS=--require ./x.js --title': 'y' })).toThrow(/"NODE_OPTIONS=--require .\/x.js --title" holds "=" or NUL/);
    expect(() => serverEnvironment(host, undefined, { 'A\0B': 'y' })).toThrow(/holds "=" or NUL/);
    expect(serverEnvironment(host, undefined, { NODE_ENV: 'production' }).NODE_ENV).toBe('production');
  });

  it('inheritEnv names more variables, or true passes the whole environment but its bash functions; the config’s values win', () => {
    expect(serverEnvironment(host, ['AWS_PROFILE'], {}).AWS_PROFILE).toBe('work');
    expect(serverEnvironment(host, ['AWS_PROFILE'], {}).OPENAI_API_KEY).toBeUndefined();
    const whole = serverEnvironment(host, true, { TZ: 'UTC' });
    expect(whole.OPENAI_API_KEY).toBe('sk-secret');
    expect(whole.TZ).toBe('UTC');
    expect(whole.BASH_FUNC_x).toBeUndefined();
  });

  it('a config key named __proto__ is a plain key', () => {
    const env = serverEnvironment({}, undefined, JSON.parse('{"__proto__": "x"}'));
    expect(Object.keys(env)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
  });

  it('on Windows, names match without regard to case, and the config’s spelling replaces the host’s', () => {
    expect(inheritedByDefault('Path', 'win32')).toBe(true);
    expect(inheritedByDefault('Path', 'linux')).toBe(false);
    const env = serverEnvironment({ Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', Secret: 'x' }, ['secret'], { PATH: 'D:\\bin' }, 'win32');
    expect(env).toEqual({ SystemRoot: 'C:\\Windows', Secret: 'x', PATH: 'D:\\bin' });
  });
});
