import { describe, expect, it } from 'vitest';
import { isBrowserUrl } from '../../electron/browserUrl.js';

describe('which urls leave the app for the system browser', () => {
  it('lets http(s) pages through and nothing else', () => {
    expect(isBrowserUrl('https://auth.example.com/authorize?client_id=x')).toBe(true);
    expect(isBrowserUrl('http://127.0.0.1:8080/authorize')).toBe(true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'chatos://app/x', 'not a url', '']) expect(isBrowserUrl(url), url).toBe(false);
  });
});
