// The clouds' errors read through the catalogue, on the real lines the corpus holds: an SDK's or a
// controller's wrapper gives way to the cloud's error it carries, the installer's own checks name
// their cause over its asset wrapper, and without the entry for a code the wrapper still says
// "the cloud refused". Each platform's families on a line as its program prints it.
import { describe, expect, it } from 'vitest';
import { Classifier, classifierOf } from '../../src/catalogue/classify.js';
import { makeCatalogue } from '../../src/catalogue/load-catalogue.js';
import { shippedCatalogue } from '../../src/catalogue/shipped.js';
import { loadCorpus } from '../corpus/real/cases.js';

const catalogue = shippedCatalogue();
const classifier = classifierOf(catalogue);
const corpus = loadCorpus().cases;

/** The first line of a corpus case (its files, then the installer's output) holding `words`. */
function corpusLine(caseId: string, words: string): string {
  const c = corpus.find((x) => x.id === caseId);
  if (!c) throw new Error(`no corpus case ${caseId}`);
  const texts = [...c.files.map((f) => f.lines ?? ''), c.installer?.lines ?? ''];
  const line = texts.flatMap((t) => t.split('\n')).find((l) => l.includes(words));
  if (!line) throw new Error(`${caseId} has no line with ${words}`);
  return line;
}

function read(text: string, by: Classifier = classifier): { id?: string; error?: string; category: string; role?: string } {
  const r = by.classify(text);
  return { id: r?.decisive.entry.id, error: r?.error?.entry.id, category: r?.category ?? 'none', role: r?.role };
}

/** A classifier of the shipped catalogue without some entries: what the reading rests on. */
function without(...ids: string[]): Classifier {
  const kept = catalogue.entries
    .filter((e) => !ids.includes(e.id))
    .map((e) => ({ ...e, overlaps: Object.fromEntries(Object.entries(e.overlaps).filter(([o]) => !ids.includes(o))) }));
  return new Classifier(makeCatalogue(kept));
}

describe('cloud errors inside their wrappers', () => {
  it('reads the code inside the AWS SDK v1 wrapping, not the wrapping', () => {
    const line = corpusLine('release-34246-aws-worker-capacity', 'InsufficientInstanceCapacity');
    const r = classifier.classify(line);
    expect(r?.message?.entry.id).toBe('machine-api-create-failed');
    expect(r?.error?.entry.id).toBe('aws-ec2-insufficient-capacity');
    expect(r?.category).toBe('cloud-provider');
    // The SDK's `status code: 500, request id:` is on the same line: a symptom, it gives way.
    expect(classifier.hits(line).map((h) => h.entry.id)).toContain('aws-api-error');
  });

  it('reads the code inside the AWS SDK v2 wrapping, whatever category the code names', () => {
    const v2 = (code: string, message: string): string =>
      `E0611 09:41:27.118000       1 awsmachine_controller.go:580] "unable to create instance" err="failed to create AWSMachine instance: failed to run instance: operation error EC2: RunInstances, https response error StatusCode: 400, RequestID: 0c6f2d7e-6a38-4c1b-b0a9-7f2a1e4d9b11, api error ${code}: ${message}"`;
    expect(read(v2('InvalidSubnetID.NotFound', "The subnet ID 'subnet-0a1b2c3d' does not exist"))).toMatchObject({ error: 'aws-resource-not-found', category: 'install-config' });
    expect(read(v2('VcpuLimitExceeded', 'You have requested more vCPU capacity than your current vCPU limit of 32 allows'))).toMatchObject({ error: 'aws-ec2-instance-limit', category: 'cloud-provider' });
    // A code no entry knows: the SDK's wrapping still says the cloud answered with an error.
    expect(read(v2('InvalidParameterCombination', 'Network interfaces and an instance-level security groups may not be specified'))).toMatchObject({ error: 'aws-api-error', category: 'cloud-provider', role: 'symptom' });
  });

  it('keeps the cloud-provider reading of a capacity error when its entry is removed (the SDK wrapper carries it), and loses it without both', () => {
    const line = corpusLine('release-34246-aws-worker-capacity', 'InsufficientInstanceCapacity');
    expect(read(line, without('aws-ec2-insufficient-capacity'))).toMatchObject({ error: 'aws-api-error', category: 'cloud-provider' });
    // The machine controller's wrapper is a chain: alone it names no category.
    expect(read(line, without('aws-ec2-insufficient-capacity', 'aws-api-error'))).toMatchObject({ id: 'machine-api-create-failed', category: 'unknown' });
  });

  it('lets a vSphere inventory error inside the machine controller name the configuration', () => {
    const line = corpusLine('installer-3824-vsphere-resource-pool', 'resolves to multiple instances');
    expect(read(line)).toMatchObject({ id: 'machine-api-create-failed', error: 'vsphere-inventory-not-found', category: 'install-config' });
  });

  it('reads a missing credentials secret inside the machine controller as the cloud credentials', () => {
    const line = corpusLine('cluster-api-provider-gcp-162-creds-secret-missing', 'gcp-cloud-credentials');
    expect(read(line)).toMatchObject({ id: 'machine-api-create-failed', error: 'cloud-credentials-secret-missing', category: 'cloud-provider' });
  });

  it("reads the ELB subnets error over the service controller's wrapper", () => {
    const c = corpus.find((x) => x.id === 'okd-159-aws-upi-ingress-elb-no-subnets');
    const events = (c?.files.find((f) => f.path === 'resources/events.json')?.json as { items: { message: string }[] }).items;
    const r = classifier.classify(events[0].message);
    // Both are the programs' messages (a stage each): the one that names its cause decides.
    expect(r?.decisive.entry.id).toBe('aws-elb-no-suitable-subnets');
    expect(r?.category).toBe('cloud-provider');
    expect(classifier.hits(events[0].message).map((h) => h.entry.id)).toContain('k8s-service-load-balancer-failed');
  });
});

describe("the installer's own checks", () => {
  it('names the quota over the asset wrapper that also matches', () => {
    const line = corpusLine('installer-5491-aws-platform-quota-check', 'Platform Quota Check');
    const r = classifier.classify(line);
    expect(r?.decisive.entry.id).toBe('installer-platform-quota-check');
    expect(r?.category).toBe('cloud-provider');
    expect(classifier.hits(line).map((h) => h.entry.id)).toContain('installer-platform-quota-insufficient');
  });

  it('reads the EC2 refusals the installer relays from Terraform', () => {
    expect(read(corpusLine('installer-2736-aws-vcpu-limit', 'VcpuLimitExceeded'))).toMatchObject({ id: 'aws-ec2-instance-limit', category: 'cloud-provider' });
    expect(read(corpusLine('installer-4489-aws-scp-denies-bootstrap-type', 'UnauthorizedOperation'))).toMatchObject({ id: 'aws-unauthorized-operation', category: 'cloud-provider' });
  });
});

describe('each platform, as its program prints it', () => {
  it('Azure: autorest and azcore wordings, the code deciding', () => {
    const autorest =
      'level=error msg=Error: creating Linux Virtual Machine "c1-x7k2p-bootstrap" (Resource Group "c1-x7k2p-rg"): compute.VirtualMachinesClient#CreateOrUpdate: Failure sending request: StatusCode=0 -- Original Error: autorest/azure: Service returned an error. Status= Code="SkuNotAvailable" Message="The requested size for resource \'/subscriptions/0000/resourceGroups/c1-x7k2p-rg/providers/Microsoft.Compute/virtualMachines/c1-x7k2p-bootstrap\' is currently not available in location \'eastus\' zones \'\' for subscription \'0000\'."';
    expect(read(autorest)).toMatchObject({ id: 'azure-sku-not-available', category: 'cloud-provider' });
    expect(read('ERROR CODE: ResourceGroupNotFound')).toMatchObject({ id: 'azure-resource-group-not-found', category: 'install-config' });
    expect(read('ERROR CODE: SomethingNew')).toMatchObject({ id: 'azure-api-error', role: 'symptom', category: 'cloud-provider' });
  });

  it('GCP: the googleapi wrapping gives way to the quota, the permission, the missing machine type', () => {
    expect(read("googleapi: Error 403: Quota 'CPUS' exceeded.  Limit: 24.0 in region us-central1., quotaExceeded")).toMatchObject({ id: 'gcp-quota-exceeded', category: 'cloud-provider' });
    expect(read("googleapi: Error 403: Required 'compute.instances.create' permission for 'projects/p/zones/us-central1-a/instances/m0', forbidden")).toMatchObject({ id: 'gcp-permission-denied' });
    expect(read("googleapi: Error 404: The resource 'projects/p/zones/us-central1-a/machineTypes/n9-huge' was not found, notFound")).toMatchObject({ id: 'gcp-resource-not-found', category: 'install-config' });
  });

  it('vSphere: a permission fault inside the SOAP fault, a missing object in the configuration', () => {
    expect(read('Error: error cloning virtual machine: ServerFaultCode: Permission to perform this operation was denied.')).toMatchObject({ id: 'vsphere-no-permission', category: 'cloud-provider' });
    expect(read("unable to find datacenter \"DC1\": datacenter 'DC1' not found")).toMatchObject({ id: 'vsphere-inventory-not-found', category: 'install-config' });
  });

  it("OpenStack: Nova's and Neutron's quota bodies inside gophercloud's wrapping", () => {
    const nova = 'Expected HTTP response code [202] when accessing [POST https://compute.example.com:8774/v2.1/servers], but got 403 instead: {"forbidden": {"code": 403, "message": "Quota exceeded for instances: Requested 1, but already used 10 of 10 instances"}}';
    expect(read(nova)).toMatchObject({ id: 'openstack-quota-exceeded', category: 'cloud-provider' });
    expect(read('Expected HTTP response code [200] when accessing [GET https://image.example.com:9292/v2/images], but got 500 instead')).toMatchObject({ id: 'openstack-api-error', role: 'symptom' });
  });

  it('bare metal: a BMC refusal, an agent that never called back (a symptom, cause unknown)', () => {
    expect(read('Failed to get power state for node 0b2f. Error: IPMI call failed: power status.')).toMatchObject({ id: 'ironic-bmc-access-failed', category: 'cloud-provider' });
    expect(read('Timeout reached while inspecting the node. Please check if the ramdisk responsible for the inspection is running on the node.')).toMatchObject({ id: 'ironic-agent-timeout', role: 'symptom', category: 'unknown' });
  });
});
