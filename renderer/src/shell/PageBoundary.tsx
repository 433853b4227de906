import { Component, Suspense, useState, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Button, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageLoads, PageLoadsContext, PageSettled } from './pageReady';

function PageCrashed({ error, onReset }: { error: Error; onReset: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="page-crashed"
      title={t('common.pageCrashed')}
      description={<pre className="page-crash">{error.message}</pre>}
      action={
        <Button size="small" type="primary" onClick={onReset}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}

class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // The page shows the message; the stack is for whoever opens the devtools.
    console.error('page crashed', error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <PageCrashed error={this.state.error} onReset={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}

/**
 * One page: its own error boundary (a crash stays in the page, the menu keeps
 * working), a spinner while its chunk loads, and its ready mark (`route`:
 * what it shows, pageReady.tsx).
 */
export function PageBoundary({ route, children }: { route: string; children: ReactNode }) {
  const [loads] = useState(() => new PageLoads());
  return (
    <ErrorBoundary>
      <Suspense
        fallback={
          <div className="page-loading">
            <Spin size="large" />
          </div>
        }
      >
        <PageLoadsContext.Provider value={loads}>
          {children}
          <PageSettled loads={loads} route={route} />
        </PageLoadsContext.Provider>
      </Suspense>
    </ErrorBoundary>
  );
}
