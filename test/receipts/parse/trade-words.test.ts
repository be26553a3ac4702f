import { expect, it } from 'vitest';
import { withTradeWordsRestored } from '../../../shared/receipts/ocr/parse/trade-words.js';

// Issue 32: real receipts are faint thermal print; the engine misreads a letter of the name.
it.each([
  ['WAHIN HAROWARE SDN BHD', 'WAHIN HARDWARE SDN BHD'],
  ['UNIHAKKA NTERNATIONAL SDN BHD', 'UNIHAKKA INTERNATIONAL SDN BHD'],
  ['AIK HUAT HARDWAKE', 'AIK HUAT HARDWARE'],
  ['PERNIAGAN ZHENG HUI', 'PERNIAGAAN ZHENG HUI'],
])('restores a trade word misread by a letter: %s', (read, name) => {
  expect(withTradeWordsRestored(read)).toBe(name);
});

it.each([
  ['HOLLYBROOK GROCERS', 'another form of GROCERY'],
  ['STATIONS OF THE CROSS', 'another form of STATION'],
  ['KEDAI RUNCIT', 'words too short to tell a misreading'],
  ['Harowood Bakery', 'a name not in capitals'],
  ['TRADEWINDS', 'a word nearer no trade word'],
  // A review: real words a letter from a trade word.
  ['SUPPLIERS SDN BHD', 'a longer word than SUPPLIES'],
  ['TREADING POST', 'a longer word than TRADING'],
  ['SUPERMARKT ALDI', 'the German word'],
  ['THE KITCHIN', 'a family name'],
  ['THE GALLEY', 'a word a letter shorter than GALLERY'],
  ['TRAVERS SMITH', 'a name a letter from TRADERS'],
])('leaves %s alone: %s', (name) => {
  expect(withTradeWordsRestored(name)).toBe(name);
});
