import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Button, Spin } from 'antd';
import { useTranslation } from 'react-i18next';

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

/** One page: its own error boundary (a crash stays in the page, the menu keeps working) and a spinner while its chunk loads. */
export function PageBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary>
      <Suspense
        fallback={
          <div className="page-loading">
            <Spin size="large" />
          </div>
        }
      >
        {children}
      </Suspense>
    </ErrorBoundary>
  );
}
