import { editDistance } from './similarity.js';

/**
 * Words that shops put in their names in the countries the parser reads, long enough that a
 * letter misread or dropped ("HAROWARE", "NTERNATIONAL") cannot make another word of them: a
 * name's own words (a family's, a place's) are not among them and are never changed.
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
  'HYPERMARKET',
  'INDUSTRIES',
  'INTERNATIONAL',
  'JEWELLERY',
  'KITCHEN',
  'KOPITIAM',
  'LAUNDRY',
  'MACHINERY',
  'MANAGEMENT',
  'MARKETING',
  'MINIMARKET',
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
  'SUPERMARKET',
  'SUPPLIES',
  'TECHNOLOGY',
  'TRADERS',
  'TRADING',
  'WHOLESALE',
];

/** Shorter trade words are never restored: one letter makes another word of them. */
const SHORTEST = 7;

/**
 * A name with its trade words restored where the engine misread a letter in them, or two in a
 * word of eleven letters or more ("WAHIN HAROWARE SDN BHD", "UNIHAKKA NTERNATIONAL"). Only words in
 * capitals are looked at (names are printed so); a word already a trade word, or another form of
 * one, or near none, stays.
 */
export function withTradeWordsRestored(name: string): string {
  return name.replace(/\b[A-Z]{6,}\b/g, (word) => {
    if (TRADE_WORDS.includes(word)) return word;
    const near = TRADE_WORDS.find(
      (trade) =>
        trade.length >= SHORTEST &&
        !anotherForm(word, trade) &&
        editDistance(word, trade) <= (trade.length >= 11 ? 2 : 1),
    );
    return near ?? word;
  });
}

/** "GROCERS" beside GROCERY, "STATIONS" beside STATION: the same word in another form, not a misreading. */
function anotherForm(word: string, trade: string): boolean {
  return word.slice(0, -1) === trade.slice(0, -1) || word.startsWith(trade) || trade.startsWith(word);
}
