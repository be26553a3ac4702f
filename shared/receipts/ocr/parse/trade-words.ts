import { misreadingOf } from './similarity.js';

/**
 * Words that shops put in their names in the countries the parser reads, long enough that a
 * letter misread or dropped ("HAROWARE", "NTERNATIONAL") rarely makes another word of them. Not
 * those another language spells a letter apart ("SUPERMARKT", "MINIMARKT"), nor one a family
 * bears a letter apart ("KITCHIN").
 */
const TRADE_WORDS = [
  'AUTOMOBILE',
  'BOOKSTORE',
  'BOUTIQUE',
  'CATERING',
  'COMPANY',
  'COMPUTER',
  'CONFECTIONERY',
  'CONSTRUCTION',
  'CONVENIENCE',
  'CORPORATION',
  'DEVELOPMENT',
  'DISTRIBUTION',
  'DISTRIBUTOR',
  'ELECTRICAL',
  'ELECTRONICS',
  'EMPORIUM',
  'ENGINEERING',
  'ENTERPRISE',
  'ENTERPRISES',
  'FARMASI',
  'FASHION',
  'FURNITURE',
  'GALLERY',
  'GENERAL',
  'GROCERY',
  'HARDWARE',
  'HOLDINGS',
  'INDUSTRIES',
  'INTERNATIONAL',
  'JEWELLERY',
  'KOPITIAM',
  'LAUNDRY',
  'MACHINERY',
  'MANAGEMENT',
  'MARKETING',
  'PASARAYA',
  'PERNIAGAAN',
  'PETROLEUM',
  'PHARMACY',
  'PRINTING',
  'RESOURCES',
  'RESTAURANT',
  'RESTORAN',
  'SERVICES',
  'SOLUTIONS',
  'STATION',
  'STATIONERY',
  'SUPPLIES',
  'TECHNOLOGY',
  'TRADING',
  'WHOLESALE',
];

/** A word this long or longer that lacks a trade word's letter is that word misread, not another word. */
const LONG_ENOUGH_TO_DROP = 8;

/**
 * A name with its trade words restored where the engine misread or dropped a letter in them
 * ("WAHIN HAROWARE SDN BHD", "UNIHAKKA NTERNATIONAL"). Only words in capitals are looked at
 * (names are printed so); a word already a trade word, another form of one, or near none stays.
 */
export function withTradeWordsRestored(name: string): string {
  return name.replace(/\b[A-Z]{6,}\b/g, (word) => {
    if (TRADE_WORDS.includes(word)) return word;
    const near = misreadingOf(word, TRADE_WORDS, () => 1);
    // A letter dropped only from a long word: "GALLEY" is a word of its own beside GALLERY.
    const dropped = near !== undefined && near.length > word.length && word.length < LONG_ENOUGH_TO_DROP;
    return near && !dropped && !anotherForm(word, near) ? near : word;
  });
}

/** "GROCERS" beside GROCERY, "STATIONS" beside STATION: the same word in another form, not a misreading. */
function anotherForm(word: string, trade: string): boolean {
  return word.slice(0, -1) === trade.slice(0, -1) || word.startsWith(trade) || trade.startsWith(word);
}
