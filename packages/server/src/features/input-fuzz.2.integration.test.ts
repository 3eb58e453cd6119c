// Malformed input on every endpoint: this file's share of the areas (test/input-fuzz.ts).
import { fuzzShare } from '../test/input-fuzz.ts';

fuzzShare(2);
