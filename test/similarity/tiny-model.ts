// A tiny sentence-embedding model folder (Gather + ReduceMean ONNX graph, WordPiece tokenizer) for tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

/**
 * Concepts and their words; every word of a concept gets (nearly) the concept's vector, so
 * synonyms land close together where a lexical matcher sees different words.
 */
export const CONCEPTS: Record<string, string[]> = {
  auth: ['unauthorized', 'authentication', 'required', 'denied', 'access', 'forbidden', 'credentials', 'secret', 'rejected'],
  tls: ['x509', 'certificate', 'signed', 'unknown', 'authority', 'untrusted', 'tls', 'verify'],
  disk: ['space', 'left', 'device', 'disk', 'full', 'storage', 'quota', 'write', 'writing'],
  dns: ['lookup', 'host', 'resolve', 'dns', 'nameserver', 'such', 'name'],
  net: ['dial', 'tcp', 'timeout', 'connect', 'connection', 'refused', 'unreachable', 'route'],
  pull: ['pull', 'pulling', 'image', 'registry', 'manifest', 'source', 'initializing', 'docker', 'reading', 'release', 'error', 'failed', 'get', 'config', 'master', 'ignition'],
};

const DIM = 12;

/** A deterministic pseudo-random number in [-1, 1) from a string and an index. */
function noise(word: string, i: number): number {
  let h = 2166136261;
  for (const ch of `${word}#${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return ((h >>> 0) % 2000) / 1000 - 1;
}

function vocabulary(): string[] {
  return [...SPECIAL, ...Object.values(CONCEPTS).flat()];
}

/** The embedding table: special tokens are zero; a word is its concept's axis plus a little noise. */
function table(vocab: string[]): number[] {
  const concepts = Object.keys(CONCEPTS);
  const out: number[] = [];
  for (const word of vocab) {
    const c = concepts.findIndex((k) => CONCEPTS[k].includes(word));
    for (let d = 0; d < DIM; d++) {
      if (c < 0) out.push(0);
      // The generic words of `pull` weigh less, so the specific concepts decide.
      else out.push((d === c ? (concepts[c] === 'pull' ? 0.4 : 1) : 0) + 0.05 * noise(word, d));
    }
  }
  return out;
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  };
}

function modelBytes(vocab: string[]): Uint8Array {
  const T = onnx.TensorProto.DataType;
  const A = onnx.AttributeProto.AttributeType;
  const graph: onnxProto.onnx.IGraphProto = {
    name: 'tiny-sentence-embedding',
    initializer: [
      { name: 'embeddings', dataType: T.FLOAT, dims: [vocab.length, DIM], floatData: table(vocab) },
      { name: 'last_axis', dataType: T.INT64, dims: [1], int64Data: [-1] },
    ],
    node: [
      { opType: 'Gather', input: ['embeddings', 'input_ids'], output: ['token_vectors'], attribute: [{ name: 'axis', type: A.INT, i: 0 }] },
      { opType: 'Cast', input: ['attention_mask'], output: ['mask_float'], attribute: [{ name: 'to', type: A.INT, i: T.FLOAT }] },
      { opType: 'Unsqueeze', input: ['mask_float', 'last_axis'], output: ['mask_column'] },
      { opType: 'Mul', input: ['token_vectors', 'mask_column'], output: ['last_hidden_state'] },
      {
        opType: 'ReduceMean',
        input: ['last_hidden_state'],
        output: ['pooler_output'],
        attribute: [
          { name: 'axes', type: A.INTS, ints: [1] },
          { name: 'keepdims', type: A.INT, i: 0 },
        ],
      },
    ],
    input: [valueInfo('input_ids', T.INT64, ['batch', 'sequence']), valueInfo('attention_mask', T.INT64, ['batch', 'sequence'])],
    output: [valueInfo('last_hidden_state', T.FLOAT, ['batch', 'sequence', DIM]), valueInfo('pooler_output', T.FLOAT, ['batch', DIM])],
  };
  const model = onnx.ModelProto.create({ irVersion: 7, producerName: 'bootlens-test', opsetImport: [{ domain: '', version: 13 }], graph });
  return onnx.ModelProto.encode(model).finish();
}

function tokenizerJson(vocab: string[]): object {
  const ids = Object.fromEntries(vocab.map((w, i) => [w, i]));
  const special = (content: string): object => ({ id: ids[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [ids['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [ids['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: ids },
  };
}

/** Writes the model folder `dir/<name>` and returns its path. */
export function writeTinyModel(dir: string, name = 'tiny-minilm'): string {
  const root = join(dir, name);
  const vocab = vocabulary();
  mkdirSync(join(root, 'onnx'), { recursive: true });
  writeFileSync(join(root, 'config.json'), JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: DIM, vocab_size: vocab.length }));
  writeFileSync(join(root, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  writeFileSync(
    join(root, 'tokenizer_config.json'),
    JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 128, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' }),
  );
  writeFileSync(join(root, 'onnx', 'model.onnx'), modelBytes(vocab));
  return root;
}
