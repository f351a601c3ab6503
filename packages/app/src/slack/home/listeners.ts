import type { SlackDeps } from '../deps.js';
import { EVENTS, LEDGER_ACTIONS } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { appHomeOpened } from './opened.js';
import {
  currencyChosen,
  defaultGroupChosen,
  digestHourChosen,
  digestResumed,
  digestToggled,
  forgetClicked,
  homeRefreshed,
  remindersToggled,
} from './settings.js';

export function homeListeners(table: ListenerTable, deps: SlackDeps): void {
  table.event(EVENTS.appHomeOpened, appHomeOpened(deps));
  table.action(LEDGER_ACTIONS.homeDisconnect, forgetClicked(deps));
  table.action(LEDGER_ACTIONS.homeForget, forgetClicked(deps));
  table.action(LEDGER_ACTIONS.homeDigestToggle, digestToggled(deps));
  table.action(LEDGER_ACTIONS.homeDigestResume, digestResumed(deps));
  table.action(LEDGER_ACTIONS.homeDigestHour, digestHourChosen(deps));
  table.action(LEDGER_ACTIONS.homeCurrency, currencyChosen(deps));
  table.action(LEDGER_ACTIONS.homeDefaultGroup, defaultGroupChosen(deps));
  table.action(LEDGER_ACTIONS.homeRefresh, homeRefreshed(deps));
  table.action(LEDGER_ACTIONS.homeRemindersToggle, remindersToggled(deps));
}
