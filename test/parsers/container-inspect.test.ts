import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCrictlInspect, parsePodmanInspect } from '../../src/parsers/container-inspect.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/parsers/${name}`, import.meta.url), 'utf8');

const CRI_FILE = 'log-bundle-20261122111800/bootstrap/containers/etcd-3f1c8e2b7a9d.inspect';
const POD_FILE = 'log-bundle-20261122111800/bootstrap/pods/c4a1f0e9d8b7.inspect';
const ETCD_IMAGE = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:5c1b7d3f8a9e2d4c6b0a1f3e5d7c9b2a4f6e8d0c1b3a5f7e9d2c4b6a8f0e1d3c';

describe('parseCrictlInspect', () => {
  it('reads an exited, restarted CRI-O container field by field', () => {
    const { value, problems } = parseCrictlInspect(fixture('crictl-inspect-etcd-exited.inspect'), { file: CRI_FILE });
    expect(problems).toEqual([]);
    expect(value).toEqual({
      runtime: 'cri-o',
      id: '3f1c8e2b7a9d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6',
      name: 'etcd',
      attempt: 4,
      state: 'exited',
      createdAt: Date.UTC(2026, 10, 22, 10, 31, 12, 482),
      startedAt: Date.UTC(2026, 10, 22, 10, 31, 12, 517),
      finishedAt: Date.UTC(2026, 10, 22, 10, 31, 14, 93),
      exitCode: 1,
      reason: 'Error',
      image: ETCD_IMAGE,
      imageRef: ETCD_IMAGE,
      podName: 'etcd-bootstrap-member-bootstrap.ocp4.example.com',
      podNamespace: 'openshift-etcd',
      restartCount: 4,
      inspectSource: { file: CRI_FILE },
    });
  });

  it('keeps nothing of info, env, mounts or other annotations', () => {
    const { value } = parseCrictlInspect(fixture('crictl-inspect-etcd-exited.inspect'), { file: CRI_FILE });
    const json = JSON.stringify(value);
    expect(json).not.toContain('AWS_SECRET_ACCESS_KEY');
    expect(json).not.toContain('wJalrXUtnFEMI');
    expect(json).not.toContain('static-pod-resources');
    expect(json).not.toContain('config.hash');
    expect(json).not.toContain('sandboxID');
  });

  it('reads a running container and treats the 1970 finishedAt as unset', () => {
    const { value, problems } = parseCrictlInspect(fixture('crictl-inspect-kube-apiserver-running.inspect'), { file: CRI_FILE });
    expect(problems).toEqual([]);
    expect(value?.state).toBe('running');
    expect(value?.startedAt).toBe(Date.UTC(2026, 10, 22, 10, 20, 3, 57));
    expect(value?.finishedAt).toBeUndefined();
    expect(value?.exitCode).toBe(0);
    expect(value?.reason).toBeUndefined();
    expect(value?.restartCount).toBe(0);
    expect(value?.attempt).toBe(0);
    expect(value?.podNamespace).toBe('openshift-kube-apiserver');
  });

  it('maps every CRI state and treats 0001-01-01 as unset', () => {
    const one = (state: string) =>
      parseCrictlInspect(
        JSON.stringify({ status: { id: 'a', state, startedAt: '0001-01-01T00:00:00Z', createdAt: '2026-11-22T10:00:00.5+01:00' } }),
        { file: 'f' },
      ).value;
    expect(one('CONTAINER_CREATED')?.state).toBe('created');
    expect(one('CONTAINER_UNKNOWN')?.state).toBe('unknown');
    expect(one('CONTAINER_PAUSED_SOMEDAY')?.state).toBe('unknown');
    expect(one('CONTAINER_CREATED')?.startedAt).toBeUndefined();
    expect(one('CONTAINER_CREATED')?.createdAt).toBe(Date.UTC(2026, 10, 22, 9, 0, 0, 500));
  });

  it('reads integer-nanosecond times of older crictl and marks OOMKilled', () => {
    const text = JSON.stringify({
      status: { id: 'b', state: 'CONTAINER_EXITED', createdAt: '1795428000123456789', finishedAt: 1795428060000000000, reason: 'OOMKilled', exitCode: 137 },
    });
    const { value } = parseCrictlInspect(text, { file: 'f' });
    expect(value?.createdAt).toBe(1795428000123);
    expect(value?.finishedAt).toBe(1795428060000);
    expect(value?.oomKilled).toBe(true);
    expect(value?.exitCode).toBe(137);
  });

  it('reports the error crictl printed instead of JSON, without throwing', () => {
    const text =
      'time="2026-11-22T11:18:04Z" level=fatal msg="getting the status of the container \\"3f1c8e2b7a9d\\": rpc error: code = NotFound desc = could not find container \\"3f1c8e2b7a9d\\": container with ID starting with 3f1c8e2b7a9d not found: ID does not exist"\n';
    const { value, problems } = parseCrictlInspect(text, { file: CRI_FILE });
    expect(value).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0].kind).toBe('unparseable');
    expect(problems[0].message).toMatch(/^crictl inspect printed no JSON: time="2026-11-22T11:18:04Z" level=fatal msg="getting the status/);
  });

  it('reports the old FATA form too', () => {
    const { value, problems } = parseCrictlInspect('FATA[0000] container "3f1c8e2b7a9d" not found\n', { file: CRI_FILE });
    expect(value).toBeUndefined();
    expect(problems).toEqual([{ kind: 'unparseable', message: 'crictl inspect printed no JSON: FATA[0000] container "3f1c8e2b7a9d" not found' }]);
  });

  it('reads the JSON after warnings crictl printed on stderr', () => {
    const text =
      'WARN[0000] runtime connect using default endpoints: [unix:///run/containerd/containerd.sock unix:///run/crio/crio.sock]. As the default settings are now deprecated, you should set the endpoint instead.\n' +
      fixture('crictl-inspect-kube-apiserver-running.inspect');
    const { value, problems } = parseCrictlInspect(text, { file: CRI_FILE });
    expect(problems).toEqual([]);
    expect(value?.name).toBe('kube-apiserver');
  });

  it('still reads the status of an output cut off inside info', () => {
    const whole = fixture('crictl-inspect-etcd-exited.inspect');
    const cut = whole.slice(0, whole.indexOf('"runtimeSpec"') + 30);
    const { value, problems } = parseCrictlInspect(cut, { file: CRI_FILE });
    expect(value?.id).toBe('3f1c8e2b7a9d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6');
    expect(value?.restartCount).toBe(4);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'crictl inspect output is cut off or damaged; read its status only' }]);
  });

  it('gives nothing for output cut off inside status, with a problem', () => {
    const whole = fixture('crictl-inspect-etcd-exited.inspect');
    const { value, problems } = parseCrictlInspect(whole.slice(0, 300), { file: CRI_FILE });
    expect(value).toBeUndefined();
    expect(problems).toEqual([{ kind: 'unparseable', message: 'crictl inspect output is not valid JSON' }]);
  });

  it('handles CRLF, empty files and JSON without a status', () => {
    const crlf = fixture('crictl-inspect-kube-apiserver-running.inspect').replace(/\n/g, '\r\n');
    expect(parseCrictlInspect(crlf, { file: 'f' }).value?.state).toBe('running');
    expect(parseCrictlInspect('', { file: 'f' })).toEqual({ value: undefined, problems: [{ kind: 'empty', message: 'crictl inspect output is empty' }] });
    expect(parseCrictlInspect('\n\n', { file: 'f' }).problems[0].kind).toBe('empty');
    expect(parseCrictlInspect('{"info":{}}', { file: 'f' })).toEqual({
      value: undefined,
      problems: [{ kind: 'unparseable', message: 'crictl inspect output has no status object' }],
    });
  });

  it('reads a one-element list and reports a list without a container', () => {
    const list = parseCrictlInspect('[{"status":{"id":"abc","state":"CONTAINER_RUNNING"},"info":{}}]', { file: 'f' });
    expect(list.problems).toEqual([]);
    expect(list.value).toMatchObject({ id: 'abc', state: 'running' });
    expect(parseCrictlInspect('[]', { file: 'f' })).toEqual({
      value: undefined,
      problems: [{ kind: 'unparseable', message: 'crictl inspect output has no status object' }],
    });
  });

  it('keeps the container and reports an error crictl printed after the JSON', () => {
    const text = fixture('crictl-inspect-kube-apiserver-running.inspect') + 'E1122 11:18:04.512345    9921 remote_runtime.go:432] "ContainerStatus from runtime service failed"\n';
    const { value, problems } = parseCrictlInspect(text, { file: 'f' });
    expect(value?.name).toBe('kube-apiserver');
    expect(problems).toEqual([
      {
        kind: 'unparseable',
        message: 'crictl inspect printed after its JSON: E1122 11:18:04.512345    9921 remote_runtime.go:432] "ContainerStatus from runtime service failed"',
        line: 46,
      },
    ]);
  });

  it('reports a status without an id but keeps what it has', () => {
    const { value, problems } = parseCrictlInspect('{"status":{"metadata":{"name":"etcd"},"state":"CONTAINER_EXITED"}}', { file: 'f' });
    expect(value).toMatchObject({ id: '', name: 'etcd', state: 'exited' });
    expect(problems).toEqual([{ kind: 'unparseable', message: 'crictl inspect status has no id' }]);
  });

  it('does not echo binary garbage', () => {
    const { value, problems } = parseCrictlInspect('\u0000\u0001\u0002gz\ufffd', { file: 'f' });
    expect(value).toBeUndefined();
    expect(problems).toEqual([{ kind: 'unparseable', message: 'crictl inspect output is not text' }]);
  });
});

describe('parsePodmanInspect', () => {
  it('reads a podman container field by field and keeps no config', () => {
    const { value, problems } = parsePodmanInspect(fixture('podman-inspect-etcdctl.inspect'), { file: POD_FILE });
    expect(problems).toEqual([]);
    expect(value).toEqual([
      {
        runtime: 'podman',
        id: 'c4a1f0e9d8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1',
        name: 'etcdctl',
        image: ETCD_IMAGE,
        imageRef: '7b3e9d1c5a2f4e6d8c0b1a3f5e7d9c2b4a6f8e0d1c3b5a7f9e2d4c6b8a0f1e3d',
        createdAt: Date.UTC(2026, 10, 22, 10, 16, 1, 311),
        restartCount: 0,
        state: 'exited',
        exitCode: 1,
        startedAt: Date.UTC(2026, 10, 22, 10, 16, 1, 402),
        finishedAt: Date.UTC(2026, 10, 22, 10, 26, 1, 420),
        oomKilled: false,
        inspectSource: { file: POD_FILE },
      },
    ]);
    const json = JSON.stringify(value);
    expect(json).not.toContain('s3cr3t');
    expect(json).not.toContain('etcd-client.key');
  });

  it('reads a running container with an unset FinishedAt and an offset time', () => {
    const text = JSON.stringify([
      {
        Id: 'd1',
        Name: 'cvo-render',
        Created: '2026-11-22T11:15:04.1+01:00',
        State: { Status: 'running', Running: true, OOMKilled: false, ExitCode: 0, StartedAt: '2026-11-22T10:15:05Z', FinishedAt: '0001-01-01T00:00:00Z' },
        Image: 'abc',
        ImageName: '',
      },
    ]);
    const [c] = parsePodmanInspect(text, { file: 'f' }).value;
    expect(c.state).toBe('running');
    expect(c.finishedAt).toBeUndefined();
    expect(c.createdAt).toBe(Date.UTC(2026, 10, 22, 10, 15, 4, 100));
    expect(c.image).toBe('abc');
    expect(c.imageRef).toBeUndefined();
  });

  it('maps podman states, the OOM flag and a start error', () => {
    const state = (State: object) => parsePodmanInspect(JSON.stringify([{ Id: 'x', State }]), { file: 'f' }).value[0];
    expect(state({ Status: 'created' }).state).toBe('created');
    expect(state({ Status: 'configured' }).state).toBe('created');
    expect(state({ Status: 'stopped' }).state).toBe('exited');
    expect(state({ Status: 'paused' }).state).toBe('running');
    expect(state({ Status: 'removing' }).state).toBe('unknown');
    expect(state({ Running: false, FinishedAt: '2026-11-22T10:00:00Z' }).state).toBe('exited');
    expect(state({ Running: true }).state).toBe('running');
    expect(state({}).state).toBeUndefined();
    expect(state({ Status: 'exited', OOMKilled: true, ExitCode: 137 })).toMatchObject({ oomKilled: true, reason: 'OOMKilled', exitCode: 137 });
    expect(state({ Status: 'exited', ExitCode: 127, Error: 'crun: executable file `etcd` not found in $PATH: No such file or directory: OCI runtime attempted to invoke a command that was not found' }).reason).toMatch(/^crun: executable file/);
  });

  it('reports the error podman printed after an empty list', () => {
    const text = '[]\nError: no such object: "c4a1f0e9d8b7"\n';
    const { value, problems } = parsePodmanInspect(text, { file: POD_FILE });
    expect(value).toEqual([]);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'podman inspect printed after its JSON: Error: no such object: "c4a1f0e9d8b7"', line: 2 }]);
  });

  it('reports an error-only file and an empty file', () => {
    expect(parsePodmanInspect('Error: inspecting object: no such container c4a1\n', { file: 'f' })).toEqual({
      value: [],
      problems: [{ kind: 'unparseable', message: 'podman inspect printed no JSON: Error: inspecting object: no such container c4a1' }],
    });
    expect(parsePodmanInspect('', { file: 'f' })).toEqual({ value: [], problems: [{ kind: 'empty', message: 'podman inspect output is empty' }] });
  });

  it('keeps the complete containers of a cut-off array', () => {
    const text = JSON.stringify([{ Id: 'one', Name: 'a', State: { Status: 'exited', ExitCode: 0 } }, { Id: 'two', Name: 'b' }], null, 2);
    const cut = text.slice(0, text.lastIndexOf('"b"'));
    const { value, problems } = parsePodmanInspect(cut, { file: 'f' });
    expect(value.map((c) => c.id)).toEqual(['one']);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'podman inspect output is cut off or damaged; read 1 complete container(s)' }]);
  });

  it('reads CRLF output and a single object instead of a list', () => {
    const crlf = fixture('podman-inspect-etcdctl.inspect').replace(/\n/g, '\r\n');
    expect(parsePodmanInspect(crlf, { file: 'f' }).value[0].exitCode).toBe(1);
    const single = parsePodmanInspect('{"Id":"z","Name":"/legacy"}', { file: 'f' });
    expect(single.value.map((c) => [c.id, c.name])).toEqual([['z', 'legacy']]);
    expect(single.problems).toEqual([]);
  });

  it('reports an entry without an Id', () => {
    const { value, problems } = parsePodmanInspect('[{"Name":"x"}]', { file: 'f' });
    expect(value[0].id).toBe('');
    expect(problems).toEqual([{ kind: 'unparseable', message: 'podman inspect entry has no Id' }]);
  });
});
