import { parseOidcProviders } from './oidc-providers';

describe('OIDC_PROVIDERS', () => {
  const one = { id: 'corp', name: 'Corporate', issuer: 'https://idp.example.com/', client_id: 'dts', client_secret: 's3cret-value' };

  it('reads the providers, the issuer without its trailing slash, the secret kept out of sight', () => {
    const [p] = parseOidcProviders(JSON.stringify([{ ...one, role_claim: 'dts_roles', role_organisations: ['Fleet'], link_by_email: true }]));
    expect(p).toMatchObject({
      id: 'corp',
      name: 'Corporate',
      issuer: 'https://idp.example.com',
      clientId: 'dts',
      roleClaim: 'dts_roles',
      roleOrganisations: ['fleet'],
      linkByEmail: true,
    });
    expect(p!.clientSecret.reveal()).toBe('s3cret-value');
    expect(JSON.stringify(p)).not.toContain('s3cret-value');
    expect(parseOidcProviders(JSON.stringify([one]))[0]).toMatchObject({ roleClaim: null, roleOrganisations: [], linkByEmail: false });
  });

  it('takes plain http only on this machine', () => {
    expect(parseOidcProviders(JSON.stringify([{ ...one, issuer: 'http://127.0.0.1:4000' }]))[0]!.issuer).toBe('http://127.0.0.1:4000');
    expect(() => parseOidcProviders(JSON.stringify([{ ...one, issuer: 'http://idp.example.com' }]))).toThrow('entry 0: issuer must be an https:// URL');
  });

  it('names the entry and the member that is wrong, never a secret', () => {
    const cases: [unknown, string][] = [
      ['not json', 'must be a JSON array of providers'],
      [{}, 'must be a JSON array of providers'],
      [[1], 'entry 0 is not an object'],
      [[{ ...one, id: 'Has Space' }], 'entry 0: id must be 1-32 of a-z 0-9 -'],
      [[one, one], 'entry 1: id corp is given twice'],
      [[{ ...one, client_secret: '' }], 'entry 0: client_secret must be a non-empty string'],
      [[{ ...one, issuer: 'nowhere' }], 'entry 0: issuer must be a URL'],
      [[{ ...one, role_claim: 'roles' }], 'entry 0: role_claim needs role_organisations'],
      [[{ ...one, role_claim: 'roles', role_organisations: 'fleet' }], 'entry 0: role_organisations must be a list of organisation names'],
      [[{ ...one, link_by_email: 'yes' }], 'entry 0: link_by_email must be true or false'],
    ];
    for (const [value, message] of cases) {
      const json = typeof value === 'string' ? value : JSON.stringify(value);
      expect(() => parseOidcProviders(json)).toThrow(message);
      try {
        parseOidcProviders(json);
      } catch (error) {
        expect((error as Error).message).not.toContain('s3cret-value');
      }
    }
  });
});
