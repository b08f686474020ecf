import { SessionExpiredPage } from "../features/auth/routes/SessionExpiredPage";
import { mountSignInPage } from "./mount";

mountSignInPage(SessionExpiredPage);
