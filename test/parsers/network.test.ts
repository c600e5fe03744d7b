import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHostname, parseHosts, parseIpAddr, parseIpRoute, parseResolvConf } from '../../src/parsers/network.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/parsers/${name}`, import.meta.url), 'utf8');

describe('parseIpAddr', () => {
  it('reads every interface with state, mtu, mac and addresses', () => {
    const { value, problems } = parseIpAddr(fixture('network-ip-addr.txt'));
    expect(problems).toEqual([]);
    expect(value.map((i) => i.name)).toEqual(['lo', 'ens3', 'ens4', 'ens3.100', 'tun0']);
    expect(value[0]).toEqual({
      name: 'lo',
      state: 'UNKNOWN',
      mtu: 65536,
      mac: '00:00:00:00:00:00',
      addresses: [
        { family: 'inet', address: '127.0.0.1', prefix: 8, scope: 'host' },
        { family: 'inet6', address: '::1', prefix: 128, scope: 'host' },
      ],
    });
    expect(value[1]).toEqual({
      name: 'ens3',
      state: 'UP',
      mtu: 1500,
      mac: '52:54:00:8b:2f:11',
      addresses: [
        { family: 'inet', address: '10.0.0.4', prefix: 24, scope: 'global' },
        { family: 'inet', address: '10.0.0.200', prefix: 32, scope: 'global' },
        { family: 'inet6', address: 'fd00:1101::4', prefix: 128, scope: 'global' },
        { family: 'inet6', address: 'fe80::5054:ff:fe8b:2f11', prefix: 64, scope: 'link' },
      ],
    });
    expect(value[2]).toEqual({ name: 'ens4', state: 'DOWN', mtu: 9000, mac: '52:54:00:12:34:56', addresses: [] });
    expect(value[3].addresses).toEqual([{ family: 'inet', address: '192.168.100.4', prefix: 24, scope: 'global' }]);
    expect(value[4]).toEqual({
      name: 'tun0',
      state: 'UNKNOWN',
      mtu: 1400,
      addresses: [{ family: 'inet', address: '10.8.0.6', prefix: 32, scope: 'global' }],
    });
  });

  it('reads CRLF output', () => {
    const { value } = parseIpAddr(fixture('network-ip-addr.txt').replace(/\n/g, '\r\n'));
    expect(value[1].addresses[0]).toEqual({ family: 'inet', address: '10.0.0.4', prefix: 24, scope: 'global' });
  });

  it('reports error text instead of output, and an empty file', () => {
    expect(parseIpAddr('Cannot open netlink socket: Permission denied\n')).toEqual({
      value: [],
      problems: [{ kind: 'unparseable', message: 'not ip addr output: Cannot open netlink socket: Permission denied', line: 1 }],
    });
    expect(parseIpAddr('')).toEqual({ value: [], problems: [{ kind: 'empty', message: 'ip addr output is empty' }] });
  });

  it('keeps an address line without scope and reports stray text between links', () => {
    const text = '2: eth0: <UP> mtu 1500 state UP\n    inet 10.1.2.3/16\nbash: garbage\n';
    const { value, problems } = parseIpAddr(text);
    expect(value[0].addresses).toEqual([{ family: 'inet', address: '10.1.2.3', prefix: 16 }]);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'not ip addr output: bash: garbage', line: 3 }]);
  });
});

describe('parseIpRoute', () => {
  it('reads routes with gateway, device and source', () => {
    const { value, problems } = parseIpRoute(fixture('network-ip-route.txt'));
    expect(problems).toEqual([]);
    expect(value).toEqual([
      { destination: 'default', via: '10.0.0.1', dev: 'ens3', source: '10.0.0.4', raw: 'default via 10.0.0.1 dev ens3 proto dhcp src 10.0.0.4 metric 100' },
      { destination: '10.0.0.0/24', dev: 'ens3', source: '10.0.0.4', raw: '10.0.0.0/24 dev ens3 proto kernel scope link src 10.0.0.4 metric 100' },
      { destination: '169.254.169.254', via: '10.0.0.1', dev: 'ens3', source: '10.0.0.4', raw: '169.254.169.254 via 10.0.0.1 dev ens3 proto dhcp src 10.0.0.4 metric 100' },
      { destination: '192.168.100.0/24', dev: 'ens3.100', source: '192.168.100.4', raw: '192.168.100.0/24 dev ens3.100 proto kernel scope link src 192.168.100.4 metric 400' },
      { destination: '10.128.0.0/14', raw: 'unreachable 10.128.0.0/14 proto static metric 1024' },
    ]);
  });

  it('reads IPv6 routes and a multipath default route', () => {
    const text = [
      'fd00:1101::/64 dev ens3 proto ra metric 100 pref medium',
      'default proto static metric 1024 pref medium',
      '\tnexthop via 10.0.0.1 dev ens3 weight 1 ',
      '\tnexthop via 10.0.1.1 dev ens4 weight 1 ',
    ].join('\r\n');
    const { value, problems } = parseIpRoute(text);
    expect(problems).toEqual([]);
    expect(value[0]).toEqual({ destination: 'fd00:1101::/64', dev: 'ens3', raw: 'fd00:1101::/64 dev ens3 proto ra metric 100 pref medium' });
    expect(value[1]).toMatchObject({ destination: 'default', via: '10.0.0.1', dev: 'ens3' });
    expect(value[1].raw.split('\n')).toHaveLength(3);
  });

  it('reports lines that are not routes', () => {
    const { value, problems } = parseIpRoute('Error: any valid prefix is expected rather than "foo".\ndefault via 10.0.0.1 dev ens3\n');
    expect(value.map((r) => r.destination)).toEqual(['default']);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'not ip route output: Error: any valid prefix is expected rather than "foo".', line: 1 }]);
    expect(parseIpRoute('\n').problems).toEqual([{ kind: 'empty', message: 'ip route output is empty' }]);
  });
});

describe('parseResolvConf', () => {
  it('reads a NetworkManager resolv.conf', () => {
    const text = '# Generated by NetworkManager\nsearch ocp4.example.com example.com\nnameserver 10.0.0.1\nnameserver fd00:1101::1\noptions ndots:1 timeout:2\n';
    expect(parseResolvConf(text)).toEqual({
      value: { nameservers: ['10.0.0.1', 'fd00:1101::1'], searchDomains: ['ocp4.example.com', 'example.com'] },
      problems: [],
    });
  });

  it('lets the last search or domain line win, and skips ; comments', () => {
    const text = 'domain old.example.com\r\n; comment\r\nsearch a.example.com\r\ndomain example.com\r\nnameserver 127.0.0.53\r\n';
    expect(parseResolvConf(text).value).toEqual({ nameservers: ['127.0.0.53'], searchDomains: ['example.com'] });
  });

  it('reports odd lines and an empty file', () => {
    expect(parseResolvConf('nameserver\ncp: cannot stat /etc/resolv.conf\n').problems).toEqual([
      { kind: 'unparseable', message: 'nameserver without an address', line: 1 },
      { kind: 'unparseable', message: 'unknown resolv.conf line: cp: cannot stat /etc/resolv.conf', line: 2 },
    ]);
    expect(parseResolvConf('')).toEqual({ value: { nameservers: [], searchDomains: [] }, problems: [{ kind: 'empty', message: 'resolv.conf is empty' }] });
  });
});

describe('parseHosts', () => {
  it('reads addresses and names, with comments anywhere', () => {
    const text = [
      '# Loopback entries; do not change.',
      '127.0.0.1   localhost localhost.localdomain localhost4 localhost4.localdomain4',
      '::1         localhost localhost.localdomain localhost6 localhost6.localdomain6',
      '10.0.0.4 api-int.ocp4.example.com api.ocp4.example.com # added by the installer',
      '',
    ].join('\n');
    expect(parseHosts(text)).toEqual({
      value: [
        { address: '127.0.0.1', names: ['localhost', 'localhost.localdomain', 'localhost4', 'localhost4.localdomain4'] },
        { address: '::1', names: ['localhost', 'localhost.localdomain', 'localhost6', 'localhost6.localdomain6'] },
        { address: '10.0.0.4', names: ['api-int.ocp4.example.com', 'api.ocp4.example.com'] },
      ],
      problems: [],
    });
  });

  it('reports lines without names or with a bad address', () => {
    const { value, problems } = parseHosts('10.0.0.9\nnot-an-address host\r\nfe80::1%ens3 link-local\n');
    expect(value).toEqual([{ address: 'fe80::1%ens3', names: ['link-local'] }]);
    expect(problems).toEqual([
      { kind: 'unparseable', message: 'not a hosts line: 10.0.0.9', line: 1 },
      { kind: 'unparseable', message: 'not a hosts line: not-an-address host', line: 2 },
    ]);
    expect(parseHosts('').problems[0].kind).toBe('empty');
  });
});

describe('parseHostname', () => {
  it('reads the one name, with CRLF', () => {
    expect(parseHostname('bootstrap.ocp4.example.com\r\n')).toEqual({ value: 'bootstrap.ocp4.example.com', problems: [] });
    expect(parseHostname('\nlocalhost\n')).toEqual({ value: 'localhost', problems: [] });
  });

  it('rejects error text and reports trailing text', () => {
    expect(parseHostname('bash: hostname: command not found\n')).toEqual({
      value: undefined,
      problems: [{ kind: 'unparseable', message: 'not a host name: bash: hostname: command not found', line: 1 }],
    });
    expect(parseHostname('master-0\nextra\n')).toEqual({
      value: 'master-0',
      problems: [{ kind: 'unparseable', message: 'unexpected text after the host name: extra', line: 2 }],
    });
    expect(parseHostname('')).toEqual({ value: undefined, problems: [{ kind: 'empty', message: 'hostname output is empty' }] });
  });
});
