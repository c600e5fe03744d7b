import { describe, expect, it } from 'vitest';
import { parseEtcdEndpointHealth, parseEtcdMemberList, sniffEtcdctlOutput } from '../../src/parsers/etcdctl.js';

const FILE = 'log-bundle-20261122111800/bootstrap/etcd/member-list.txt';
const src = { file: FILE };

const MEMBER_TABLE = [
  '+------------------+-----------+----------------------------+-----------------------+-----------------------+------------+',
  '|        ID        |  STATUS   |            NAME            |      PEER ADDRS       |     CLIENT ADDRS      | IS LEARNER |',
  '+------------------+-----------+----------------------------+-----------------------+-----------------------+------------+',
  '| 2c4a7e8b9d1f0356 |   started |             etcd-bootstrap | https://10.0.0.4:2380 | https://10.0.0.4:2379 |      false |',
  '| 8e9e05c52164694d |   started | master-0.ocp4.example.com  | https://10.0.0.5:2380 | https://10.0.0.5:2379,https://[fd00::5]:2379 |       true |',
  '| fd422379fda50e48 | unstarted |                            | https://10.0.0.6:2380 |                       |      false |',
  '+------------------+-----------+----------------------------+-----------------------+-----------------------+------------+',
  '',
].join('\n');

// `etcdctl member list -w json`: ids are uint64 numbers beyond 2^53.
const MEMBER_JSON =
  '{"header":{"cluster_id":14841639068965178418,"member_id":3191502424047027030,"raft_term":2},' +
  '"members":[{"ID":3191502424047027030,"name":"etcd-bootstrap","peerURLs":["https://10.0.0.4:2380"],"clientURLs":["https://10.0.0.4:2379"]},' +
  '{"ID":10276657743932975437,"name":"master-0.ocp4.example.com","peerURLs":["https://10.0.0.5:2380"],"clientURLs":["https://10.0.0.5:2379"],"isLearner":true},' +
  '{"ID":18249187646912138824,"peerURLs":["https://10.0.0.6:2380"],"isLearner":true}]}\n';

describe('parseEtcdMemberList', () => {
  it('reads the table form, with the unstarted member that has no name', () => {
    const { value, problems } = parseEtcdMemberList(MEMBER_TABLE, src);
    expect(problems).toEqual([]);
    expect(value.format).toBe('table');
    expect(value.source).toEqual(src);
    expect(value.clusterId).toBeUndefined();
    expect(value.members).toEqual([
      { id: '2c4a7e8b9d1f0356', name: 'etcd-bootstrap', status: 'started', peerUrls: ['https://10.0.0.4:2380'], clientUrls: ['https://10.0.0.4:2379'], isLearner: false },
      {
        id: '8e9e05c52164694d',
        name: 'master-0.ocp4.example.com',
        status: 'started',
        peerUrls: ['https://10.0.0.5:2380'],
        clientUrls: ['https://10.0.0.5:2379', 'https://[fd00::5]:2379'],
        isLearner: true,
      },
      { id: 'fd422379fda50e48', name: '', status: 'unstarted', peerUrls: ['https://10.0.0.6:2380'], clientUrls: [], isLearner: false },
    ]);
  });

  it('reads an old table without the learner column', () => {
    const text = [
      '+------------------+---------+----------------+-----------------------+-----------------------+',
      '|        ID        | STATUS  |      NAME      |      PEER ADDRS       |     CLIENT ADDRS      |',
      '+------------------+---------+----------------+-----------------------+-----------------------+',
      '| 2c4a7e8b9d1f0356 | started | etcd-bootstrap | https://10.0.0.4:2380 | https://10.0.0.4:2379 |',
      '+------------------+---------+----------------+-----------------------+-----------------------+',
    ].join('\r\n');
    const { value, problems } = parseEtcdMemberList(text, src);
    expect(problems).toEqual([]);
    expect(value.members).toEqual([
      { id: '2c4a7e8b9d1f0356', name: 'etcd-bootstrap', status: 'started', peerUrls: ['https://10.0.0.4:2380'], clientUrls: ['https://10.0.0.4:2379'], isLearner: false },
    ]);
  });

  it('reports a table row with a missing column at its line', () => {
    const lines = MEMBER_TABLE.split('\n');
    lines[4] = '| 8e9e05c52164694d |   started | master-0 | https://10.0.0.5:2380 |';
    const { value, problems } = parseEtcdMemberList(lines.join('\n'), src);
    expect(value.members.map((m) => m.id)).toEqual(['2c4a7e8b9d1f0356', 'fd422379fda50e48']);
    expect(problems).toEqual([
      { kind: 'unparseable', message: 'not a member row: 8e9e05c52164694d | started | master-0 | https://10.0.0.5:2380', line: 5 },
    ]);
  });

  it('reads the simple form with and without the learner column', () => {
    const text = [
      '2c4a7e8b9d1f0356, started, etcd-bootstrap, https://10.0.0.4:2380, https://10.0.0.4:2379, false',
      '8e9e05c52164694d, started, master-0, https://10.0.0.5:2380, https://10.0.0.5:2379,https://10.0.0.50:2379, true',
      'fd422379fda50e48, unstarted, , https://10.0.0.6:2380, , false',
    ].join('\n');
    const { value, problems } = parseEtcdMemberList(text, src);
    expect(problems).toEqual([]);
    expect(value.format).toBe('simple');
    expect(value.members[1]).toEqual({
      id: '8e9e05c52164694d',
      name: 'master-0',
      status: 'started',
      peerUrls: ['https://10.0.0.5:2380'],
      clientUrls: ['https://10.0.0.5:2379', 'https://10.0.0.50:2379'],
      isLearner: true,
    });
    expect(value.members[2]).toEqual({ id: 'fd422379fda50e48', name: '', status: 'unstarted', peerUrls: ['https://10.0.0.6:2380'], clientUrls: [], isLearner: false });

    const old = parseEtcdMemberList('a8266ecf031671f3, unstarted, , https://10.0.0.7:2380,\n', src);
    expect(old.problems).toEqual([]);
    expect(old.value.members).toEqual([{ id: 'a8266ecf031671f3', name: '', status: 'unstarted', peerUrls: ['https://10.0.0.7:2380'], clientUrls: [], isLearner: false }]);
  });

  it('reads the JSON form and converts uint64 ids exactly to hex', () => {
    const { value, problems } = parseEtcdMemberList(MEMBER_JSON, src);
    expect(problems).toEqual([]);
    expect(value.format).toBe('json');
    expect(value.clusterId).toBe('cdf818194e3a8c32');
    expect(value.members.map((m) => m.id)).toEqual(['2c4a7e8b9d1f0356', '8e9e05c52164694d', 'fd422379fda50e48']);
    expect(value.members[2]).toEqual({ id: 'fd422379fda50e48', name: '', status: 'unstarted', peerUrls: ['https://10.0.0.6:2380'], clientUrls: [], isLearner: true });
    expect(value.members[1].isLearner).toBe(true);
    expect(value.members[0]).toMatchObject({ status: 'started', isLearner: false });
  });

  it('reads JSON ids written as hex strings (--hex) and small numbers', () => {
    const text = '{"header":{"cluster_id":"cdf818194e3a8c32"},"members":[{"ID":"8E9E05C52164694D","name":"a"},{"ID":255,"name":"b"}]}';
    const { value } = parseEtcdMemberList(text, src);
    expect(value.clusterId).toBe('cdf818194e3a8c32');
    expect(value.members.map((m) => m.id)).toEqual(['8e9e05c52164694d', 'ff']);
  });

  it('does not touch digits inside JSON strings', () => {
    const text = '{"members":[{"ID":10276657743932975437,"name":"n12345678901234567890","peerURLs":["https://10.0.0.5:2380"]}]}';
    const { value } = parseEtcdMemberList(text, src);
    expect(value.members[0]).toMatchObject({ id: '8e9e05c52164694d', name: 'n12345678901234567890' });
  });

  it('skips the client JSON log lines before the JSON document', () => {
    const text =
      '{"level":"warn","ts":"2026-11-22T10:16:01.120Z","logger":"etcd-client","caller":"v3@v3.5.9/retry_interceptor.go:62","msg":"retrying of unary invoker failed","attempt":0,"error":"rpc error: code = Unavailable"}\n' +
      MEMBER_JSON;
    const { value, problems } = parseEtcdMemberList(text, src);
    expect(problems).toEqual([]);
    expect(value.members).toHaveLength(3);
  });

  it('reports a member without an id in JSON', () => {
    const { value, problems } = parseEtcdMemberList('{"members":[{"name":"x"},{"ID":1,"name":"y"}]}', src);
    expect(value.members.map((m) => m.id)).toEqual(['1']);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'members[0] has no readable ID' }]);
  });

  it('gives an empty list and a problem for error text or an empty file', () => {
    const err = parseEtcdMemberList(
      '{"level":"warn","ts":"2026-11-22T10:16:01.120Z","msg":"retrying of unary invoker failed"}\nError: context deadline exceeded\n',
      src,
    );
    expect(err.value.members).toEqual([]);
    expect(err.problems).toEqual([{ kind: 'unparseable', message: 'not etcdctl member list output: {"level":"warn","ts":"2026-11-22T10:16:01.120Z","msg":"retrying of unary invoker failed"}', line: 1 }]);
    const empty = parseEtcdMemberList('', src);
    expect(empty.value).toEqual({ source: src, format: 'simple', members: [] });
    expect(empty.problems).toEqual([{ kind: 'empty', message: 'etcdctl member list output is empty' }]);
    expect(parseEtcdMemberList('{"header":{}}', src).problems).toEqual([{ kind: 'unparseable', message: 'JSON without members[]' }]);
  });

  it('keeps good simple lines and reports the others', () => {
    const text = '2c4a7e8b9d1f0356, started, etcd-bootstrap, https://10.0.0.4:2380, https://10.0.0.4:2379, false\ngarbage line here\n';
    const { value, problems } = parseEtcdMemberList(text, src);
    expect(value.members).toHaveLength(1);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'not a member line: garbage line here', line: 2 }]);
  });
});

describe('parseEtcdEndpointHealth', () => {
  it('reads the simple form, healthy and unhealthy, each at its line', () => {
    const text = [
      'https://10.0.0.4:2379 is healthy: successfully committed proposal: took = 11.46ms',
      'https://10.0.0.5:2379 is unhealthy: failed to commit proposal: context deadline exceeded',
      '{"level":"warn","ts":"2026-11-22T10:16:06.120Z","logger":"client","caller":"v3/retry_interceptor.go:62","msg":"retrying of unary invoker failed"}',
      'Error: unhealthy cluster',
      '',
    ].join('\n');
    const { value, problems } = parseEtcdEndpointHealth(text, src);
    expect(problems).toEqual([]);
    expect(value).toEqual([
      { endpoint: 'https://10.0.0.4:2379', healthy: true, took: '11.46ms', source: { file: FILE, line: 1 } },
      { endpoint: 'https://10.0.0.5:2379', healthy: false, error: 'failed to commit proposal: context deadline exceeded', source: { file: FILE, line: 2 } },
    ]);
  });

  it('reads the table form, including an empty error cell', () => {
    const text = [
      '+-----------------------+--------+--------------+---------------------------------------------------------+',
      '|       ENDPOINT        | HEALTH |     TOOK     |                          ERROR                          |',
      '+-----------------------+--------+--------------+---------------------------------------------------------+',
      '| https://10.0.0.4:2379 |   true |  11.460783ms |                                                         |',
      '| https://10.0.0.5:2379 |  false | 5.001348372s | failed to commit proposal: context deadline exceeded    |',
      '+-----------------------+--------+--------------+---------------------------------------------------------+',
    ].join('\r\n');
    const { value, problems } = parseEtcdEndpointHealth(text, src);
    expect(problems).toEqual([]);
    expect(value).toEqual([
      { endpoint: 'https://10.0.0.4:2379', healthy: true, took: '11.460783ms', source: { file: FILE, line: 4 } },
      {
        endpoint: 'https://10.0.0.5:2379',
        healthy: false,
        took: '5.001348372s',
        error: 'failed to commit proposal: context deadline exceeded',
        source: { file: FILE, line: 5 },
      },
    ]);
  });

  it('reports a table row with a missing column', () => {
    const text = '| ENDPOINT | HEALTH | TOOK | ERROR |\n| https://10.0.0.4:2379 | maybe |\n';
    const { value, problems } = parseEtcdEndpointHealth(text, src);
    expect(value).toEqual([]);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'not an endpoint row: https://10.0.0.4:2379 | maybe', line: 2 }]);
  });

  it('reads the JSON form with the line of each entry', () => {
    const text =
      '[\n{"endpoint":"https://10.0.0.4:2379","health":true,"took":"11.460783ms"},\n' +
      '{"endpoint":"https://10.0.0.5:2379","health":false,"took":"5.001348372s","error":"failed to commit proposal: context deadline exceeded"}\n]\n';
    const { value, problems } = parseEtcdEndpointHealth(text, src);
    expect(problems).toEqual([]);
    expect(value).toEqual([
      { endpoint: 'https://10.0.0.4:2379', healthy: true, took: '11.460783ms', source: { file: FILE, line: 2 } },
      { endpoint: 'https://10.0.0.5:2379', healthy: false, took: '5.001348372s', error: 'failed to commit proposal: context deadline exceeded', source: { file: FILE, line: 3 } },
    ]);
  });

  it('reads one-line JSON and reports entries that are not health entries', () => {
    const { value, problems } = parseEtcdEndpointHealth('[{"endpoint":"https://a:2379","health":"true"},{"foo":1}]', src);
    expect(value).toEqual([{ endpoint: 'https://a:2379', healthy: true, source: { file: FILE, line: 1 } }]);
    expect(problems).toEqual([{ kind: 'unparseable', message: '[1] is not an endpoint health entry', line: 1 }]);
  });

  it('reports unknown lines, error-only and empty output', () => {
    const mixed = parseEtcdEndpointHealth('https://10.0.0.4:2379 is healthy: successfully committed proposal: took = 2ms\nsomething else\n', src);
    expect(mixed.value).toHaveLength(1);
    expect(mixed.problems).toEqual([{ kind: 'unparseable', message: 'not an endpoint health line: something else', line: 2 }]);
    const error = parseEtcdEndpointHealth('sh: etcdctl: command not found\n', src);
    expect(error.value).toEqual([]);
    expect(error.problems).toEqual([{ kind: 'unparseable', message: 'not etcdctl endpoint health output: sh: etcdctl: command not found', line: 1 }]);
    expect(parseEtcdEndpointHealth('\n', src).problems).toEqual([{ kind: 'empty', message: 'etcdctl endpoint health output is empty' }]);
  });
});

describe('sniffEtcdctlOutput', () => {
  it('tells the two commands apart in every form', () => {
    expect(sniffEtcdctlOutput(MEMBER_TABLE)).toBe('member-list');
    expect(sniffEtcdctlOutput(MEMBER_JSON)).toBe('member-list');
    expect(sniffEtcdctlOutput('2c4a7e8b9d1f0356, started, etcd-bootstrap, https://10.0.0.4:2380, https://10.0.0.4:2379, false\n')).toBe('member-list');
    expect(sniffEtcdctlOutput('| ENDPOINT | HEALTH | TOOK | ERROR |\n| https://a:2379 | true | 1ms | |\n')).toBe('endpoint-health');
    expect(sniffEtcdctlOutput('[{"endpoint":"https://a:2379","health":true,"took":"1ms"}]')).toBe('endpoint-health');
    expect(sniffEtcdctlOutput('https://10.0.0.5:2379 is unhealthy: failed to commit proposal: context deadline exceeded\r\nError: unhealthy cluster\r\n')).toBe('endpoint-health');
  });

  it('says nothing for other output', () => {
    expect(sniffEtcdctlOutput('')).toBeUndefined();
    expect(sniffEtcdctlOutput('Error: context deadline exceeded')).toBeUndefined();
    // endpoint status has an ENDPOINT column but no HEALTH column.
    expect(sniffEtcdctlOutput('| ENDPOINT | ID | VERSION | DB SIZE | IS LEADER |\n')).toBeUndefined();
    expect(sniffEtcdctlOutput('{"level":"warn","ts":"2026-11-22T10:16:01.120Z","msg":"retrying"}')).toBeUndefined();
  });
});
