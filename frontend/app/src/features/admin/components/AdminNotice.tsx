import { Alert } from "@mantine/core";
import { createContext, useCallback, useContext, useMemo, useState } from "react";
import type { ReactNode } from "react";

type Notify = (text: string) => void;

const NoticeContext = createContext<Notify>(() => {});

/**
 * The admin area's confirmation after a create, save or delete: the dashboard's notice (a teal
 * status alert), shown above the screen until closed or replaced.
 */
export function AdminNoticeProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<{ id: number; text: string } | null>(null);
  const notify = useCallback<Notify>((text) => setNotice({ id: Date.now(), text }), []);
  const value = useMemo(() => notify, [notify]);
  return (
    <NoticeContext.Provider value={value}>
      {notice && (
        <Alert
          key={notice.id}
          color="teal"
          role="status"
          mb="md"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
          data-testid="admin-notice"
        >
          {notice.text}
        </Alert>
      )}
      {children}
    </NoticeContext.Provider>
  );
}

/** Shows a confirmation in the admin area. */
export function useAdminNotice(): Notify {
  return useContext(NoticeContext);
}
