import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../test/render.tsx';
import { DataTable, usePaging } from './data-table.tsx';

const rows = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `Node ${i + 1}` }));
const columns = [{ key: 'name', header: 'Name', render: (r: (typeof rows)[number]) => r.name }];

/** A list paged in the URL, as the list pages are: the rows of the current page out of 25. */
function PagedList() {
  const { limit, offset, setPage } = usePaging();
  return (
    <DataTable
      label="Nodes"
      columns={columns}
      rows={rows.slice(offset, offset + limit)}
      rowKey={(r) => r.id}
      total={rows.length}
      limit={limit}
      offset={offset}
      onPage={setPage}
      empty="No nodes"
    />
  );
}

describe('DataTable', () => {
  it("labels the page 'a-b of N items' and clamps the last page's end to the total", async () => {
    const { user, router } = renderScreen(<PagedList />, { url: '/nodes?limit=10&offset=0' });
    expect(screen.getByText('1-10 of 25 items')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Nodes' })).getAllByRole('row')).toHaveLength(11);

    await user.click(screen.getByRole('button', { name: '3' }));
    expect(screen.getByText('21-25 of 25 items')).toBeInTheDocument();
    expect(screen.getByText('Node 25')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?limit=10&offset=20');
  });

  it('moves an offset past the end to the last page, replacing the address (never an inverted range)', async () => {
    const { router } = renderScreen(<PagedList />, { url: '/nodes?limit=10&offset=290' });
    expect(await screen.findByText('Node 25')).toBeInTheDocument();
    expect(screen.getByText('21-25 of 25 items')).toBeInTheDocument();
    expect(screen.queryByText('No nodes')).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('?limit=10&offset=20');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('opens a row from the keyboard: Tab reaches it, Enter opens it', async () => {
    const opened: number[] = [];
    const { user } = renderScreen(
      <DataTable
        label="Nodes"
        columns={columns}
        rows={rows.slice(0, 3)}
        rowKey={(r) => r.id}
        total={3}
        limit={10}
        offset={0}
        onPage={() => undefined}
        onRowClick={(r) => opened.push(r.id)}
        empty="No nodes"
      />,
    );
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Node 1');
    await user.tab();
    await user.keyboard('{Enter}');
    expect(opened).toEqual([2]);
  });

  it('falls back to 10 rows from the start for a page size or offset the spec does not allow', () => {
    renderScreen(<PagedList />, { url: '/nodes?limit=13&offset=-20' });
    expect(screen.getByText('1-10 of 25 items')).toBeInTheDocument();
  });

  it('goes back to the first page when the page size changes, keeping the rest of the query', async () => {
    const { user, router } = renderScreen(<PagedList />, { url: '/nodes?tab=LIST&limit=10&offset=10' });
    expect(screen.getByText('11-20 of 25 items')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await user.click(screen.getByRole('option', { name: '50' }));
    expect(screen.getByText('1-25 of 25 items')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=LIST&limit=50&offset=0');
  });

  it('shows the empty text and no paging when there are no rows', () => {
    function Empty() {
      const [page] = useState({ limit: 10, offset: 0 });
      return <DataTable label="Nodes" columns={columns} rows={[]} rowKey={(r) => r.id} total={0} {...page} onPage={() => undefined} empty="No nodes" />;
    }
    renderScreen(<Empty />);
    expect(screen.getByText('No nodes')).toBeInTheDocument();
    expect(screen.queryByText(/items$/)).not.toBeInTheDocument();
  });

  it('shows placeholder rows, announced as loading, while the first page loads: no empty text, no table yet', () => {
    renderScreen(
      <DataTable
        label="Nodes"
        columns={columns}
        rows={undefined}
        rowKey={(r) => r.id}
        total={0}
        limit={10}
        offset={0}
        onPage={() => undefined}
        empty="No nodes"
        loading
      />,
    );
    const status = screen.getByRole('status', { name: 'Loading Nodes' });
    expect(status).toHaveAttribute('aria-busy', 'true');
    expect(status.querySelectorAll('.mantine-Skeleton-root')).toHaveLength(11);
    expect(screen.queryByText('No nodes')).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
