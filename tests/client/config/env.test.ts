import { describe, expect, it } from 'vitest';
import { resolveApiBase } from '../../../client/src/config/env.ts';

describe('the API address', () => {
  it('means the same origin when unset or empty', () => {
    expect(resolveApiBase(undefined)).toEqual({ configured: true, baseUrl: '' });
    expect(resolveApiBase('')).toEqual({ configured: true, baseUrl: '' });
  });

  it('uses a configured address without its trailing slash', () => {
    expect(resolveApiBase('https://api.example.com/')).toEqual({
      configured: true,
      baseUrl: 'https://api.example.com',
    });
  });

  it("treats 'none' as a build with no backend", () => {
    expect(resolveApiBase('none')).toEqual({ configured: false, baseUrl: '' });
    expect(resolveApiBase(' NONE ')).toEqual({ configured: false, baseUrl: '' });
  });
});
