// Whether the browser suites can run: Debian's chromium (playwright-core never downloads one).
// Without it they are skipped with one visible line; under CI=true they are required.
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

let said = false;

/** True when chromium is there; false (after one line saying how to enable the suites) when not; throws under CI. */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const ci = process.env.CI;
  if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') {
    throw new Error(`${CHROMIUM} is missing and CI is set: the browser suites are required (apt-get install -y chromium; .ci/run does)`);
  }
  if (!said) {
    said = true;
    console.warn(`browser suites skipped: ${CHROMIUM} not found (apt-get install -y chromium to run them; CI=true requires them)`);
  }
  return false;
}
