/** The `/split` parser's public surface; the other modules of this folder are its inside. */
export { type AmountReading, parseAmount } from './amounts.js';
export { parseSum } from './arithmetic.js';
export { whenWords } from './expense.js';
export { CURRENCY_EXAMPLE, DEFAULT_EXAMPLE } from './group-settings.js';
export { HELP_DETAILS, HELP_OVERVIEW, type HelpLine, type HelpLineId } from './help.js';
export {
  type HelpWords,
  type HelpWordsId,
  helpFor,
  type LanguageHelp,
} from './help-languages.js';
export {
  GRAMMAR_LANGUAGES,
  type GrammarLanguage,
  grammarLanguageOf,
  LEXICONS,
  type Lexicon,
} from './lexicon/index.js';
export { cutToCommandCap, MAX_COMMAND_CHARS, parseCommand } from './parse.js';
export { PAY_EXAMPLE, REMIND_EXAMPLE } from './payment.js';
export { resolveMe } from './resolve.js';
export { isSplitThis } from './split-this.js';
export { searchWords } from './subcommands.js';
export {
  type DateRange,
  type DefaultSplit,
  HELP_TOPICS,
  type HelpTopic,
  type ListFilters,
  MAX_AMOUNT_CHARS,
  MAX_AMOUNT_MAJOR,
  ME,
  type ParseContext,
  type ParsedExpense,
  type ParsedPayment,
  type ParseProblem,
  type ParseResult,
  PROBLEM_IDS,
  type ProblemId,
  type ProblemValue,
  type ProblemValues,
  type Repeat,
  type Trouble,
} from './types.js';
