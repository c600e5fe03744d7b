// Runs around every test file: temp folders made by the fixtures are removed at the end.
import { afterAll } from 'vitest';
import { removeTempDirs } from './fixture-bundle.js';

afterAll(() => removeTempDirs());
