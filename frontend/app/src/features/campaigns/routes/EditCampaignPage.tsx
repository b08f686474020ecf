import { Button, Card, Center, Skeleton, Stack, Tabs, Text, Title } from "@mantine/core";
import { Link, useParams } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { useCampaign, type Campaign } from "../api/campaigns";
import { AiSettingsPanel } from "../components/editor/AiSettingsPanel";
import { BasicSettingsPanel } from "../components/editor/BasicSettingsPanel";
import { CampaignSummary } from "../components/editor/CampaignSummary";
import { ConversionFormsPanel } from "../components/editor/ConversionFormsPanel";
import { LeaveGuard } from "../components/editor/LeaveGuard";
import { PopupDesignPanel } from "../components/editor/PopupDesignPanel";
import { SaveBar } from "../components/editor/SaveBar";
import { TargetingPanel } from "../components/editor/TargetingPanel";
import { TestsPanel } from "../components/editor/TestsPanel";
import { useCampaignEditor } from "../hooks/useCampaignEditor";

/** The campaign's summary, its settings in five tabs and its A/B tests, the save bar, and a guard on leaving. */
function Editor({ campaign }: { campaign: Campaign }) {
  const editor = useCampaignEditor(campaign);
  return (
    <Stack gap="lg">
      <CampaignSummary
        campaign={editor.saved}
        onChangeLimit={() => {
          editor.setTab("targeting");
          editor.focusField("maxOrderValue");
        }}
      />
      <Card withBorder radius="md" p="lg">
        <Tabs
          value={editor.tab}
          onChange={editor.setTab}
          styles={{
            // One row that scrolls sideways on a phone instead of wrapping onto three.
            list: { flexWrap: "nowrap", overflowX: "auto", overflowY: "hidden" },
            tab: { whiteSpace: "nowrap", flexShrink: 0 },
          }}
        >
          <Tabs.List mb="lg">
            <Tabs.Tab value="basic">Basic Settings</Tabs.Tab>
            <Tabs.Tab value="design">Popup Design</Tabs.Tab>
            <Tabs.Tab value="targeting">Targeting</Tabs.Tab>
            <Tabs.Tab value="ai">AI Settings</Tabs.Tab>
            <Tabs.Tab value="forms">Conversion Forms</Tabs.Tab>
            <Tabs.Tab value="tests">Tests</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="basic">
            <BasicSettingsPanel editor={editor} />
          </Tabs.Panel>
          <Tabs.Panel value="design">
            <PopupDesignPanel editor={editor} />
          </Tabs.Panel>
          <Tabs.Panel value="targeting">
            <TargetingPanel editor={editor} />
          </Tabs.Panel>
          <Tabs.Panel value="ai">
            <AiSettingsPanel campaignId={campaign._id} editor={editor} />
          </Tabs.Panel>
          <Tabs.Panel value="forms">
            <ConversionFormsPanel editor={editor} />
          </Tabs.Panel>
          <Tabs.Panel value="tests">
            <TestsPanel campaignId={campaign._id} editor={editor} />
          </Tabs.Panel>
        </Tabs>
      </Card>
      <SaveBar
        dirty={editor.dirty}
        saving={editor.saving}
        status={editor.status}
        onSave={() => void editor.save()}
      />
      <LeaveGuard blocker={editor.blocker} name={editor.saved.name} />
    </Stack>
  );
}

/** /campaigns/:id/edit: loads one campaign and shows its summary and settings tabs. */
export function EditCampaignPage() {
  const { id = "" } = useParams();
  const query = useCampaign(id);
  if (query.isLoading) {
    return (
      <Stack aria-busy="true">
        <Skeleton h={40} w={320} />
        <Skeleton h={100} />
        <Skeleton h={360} />
      </Stack>
    );
  }
  if (query.isError || !query.data) {
    const notFound = (query.error as { code?: string } | null)?.code === "campaign_not_found";
    return (
      <Center mih="50vh">
        <Card withBorder radius="md" p="xl" maw={520}>
          <Stack align="center" ta="center">
            <Title order={2}>{notFound ? "Campaign Not Found" : "Failed to load campaign"}</Title>
            <Text c="dimmed">
              {notFound
                ? "This campaign doesn't exist or was deleted."
                : messageOf(query.error, "Failed to fetch campaign")}
            </Text>
            {notFound ? (
              <Button component={Link} to="/campaigns">
                Back to Campaigns
              </Button>
            ) : (
              <Button onClick={() => void query.refetch()}>Try Again</Button>
            )}
          </Stack>
        </Card>
      </Center>
    );
  }
  return <Editor key={query.data.campaign._id} campaign={query.data.campaign} />;
}
