"""Contains all the data models used in inputs/outputs"""

from .add_memory_accepted import AddMemoryAccepted
from .add_memory_accepted_status import AddMemoryAcceptedStatus
from .add_memory_request import AddMemoryRequest
from .add_memory_skipped import AddMemorySkipped
from .add_memory_skipped_reason import AddMemorySkippedReason
from .add_memory_skipped_status import AddMemorySkippedStatus
from .add_turn_request import AddTurnRequest
from .add_turn_request_role import AddTurnRequestRole
from .add_turn_response import AddTurnResponse
from .add_turn_response_processing_status import AddTurnResponseProcessingStatus
from .add_turn_response_status import AddTurnResponseStatus
from .append_history_request import AppendHistoryRequest
from .append_history_response import AppendHistoryResponse
from .append_history_response_status import AppendHistoryResponseStatus
from .batch_update_item import BatchUpdateItem
from .batch_update_request import BatchUpdateRequest
from .batch_update_response import BatchUpdateResponse
from .batch_update_result import BatchUpdateResult
from .batch_update_result_status import BatchUpdateResultStatus
from .bulk_add_item import BulkAddItem
from .bulk_add_request import BulkAddRequest
from .bulk_add_response import BulkAddResponse
from .bulk_add_result import BulkAddResult
from .bulk_add_result_status import BulkAddResultStatus
from .delete_history_by_ids import DeleteHistoryByIds
from .delete_history_by_session import DeleteHistoryBySession
from .delete_history_response import DeleteHistoryResponse
from .delete_state_request import DeleteStateRequest
from .delete_state_response import DeleteStateResponse
from .encoder_choice import EncoderChoice
from .encoder_choice_chosen_by import EncoderChoiceChosenBy
from .encoder_choice_graph import EncoderChoiceGraph
from .encoder_timing import EncoderTiming
from .encoder_timing_graph import EncoderTimingGraph
from .error_body import ErrorBody
from .feedback_request import FeedbackRequest
from .feedback_request_signal import FeedbackRequestSignal
from .feedback_response import FeedbackResponse
from .feedback_summary import FeedbackSummary
from .feedback_summary_signal_counts import FeedbackSummarySignalCounts
from .feedback_trend import FeedbackTrend
from .feedback_trend_momentum import FeedbackTrendMomentum
from .forget_by_filter import ForgetByFilter
from .forget_by_ids import ForgetByIds
from .forget_filters import ForgetFilters
from .get_state_request import GetStateRequest
from .get_state_response import GetStateResponse
from .health import Health
from .health_status import HealthStatus
from .history_turn import HistoryTurn
from .limit_exceeded import LimitExceeded
from .limit_exceeded_error import LimitExceededError
from .list_history_request import ListHistoryRequest
from .list_history_response import ListHistoryResponse
from .list_state_namespaces_request import ListStateNamespacesRequest
from .list_state_request import ListStateRequest
from .listed_memory import ListedMemory
from .memory import Memory
from .memory_export import MemoryExport
from .memory_history import MemoryHistory
from .memory_list import MemoryList
from .memory_query_filters import MemoryQueryFilters
from .memory_query_request import MemoryQueryRequest
from .memory_query_response import MemoryQueryResponse
from .memory_revision import MemoryRevision
from .memory_revision_diff import MemoryRevisionDiff
from .memory_revision_event import MemoryRevisionEvent
from .memory_status import MemoryStatus
from .memory_status_processing_status import MemoryStatusProcessingStatus
from .memory_update import MemoryUpdate
from .metadata import Metadata
from .project import Project
from .put_state_many_request import PutStateManyRequest
from .put_state_many_response import PutStateManyResponse
from .put_state_request import PutStateRequest
from .put_state_request_value import PutStateRequestValue
from .put_state_response import PutStateResponse
from .put_state_response_status import PutStateResponseStatus
from .query_request import QueryRequest
from .query_response import QueryResponse
from .readiness import Readiness
from .readiness_model import ReadinessModel
from .readiness_status import ReadinessStatus
from .recall_request import RecallRequest
from .recall_response import RecallResponse
from .recalled_memory import RecalledMemory
from .search_state_request import SearchStateRequest
from .state_item import StateItem
from .state_item_value import StateItemValue
from .state_list import StateList
from .state_namespaces import StateNamespaces
from .stored_metadata import StoredMetadata
from .too_many_requests_body import TooManyRequestsBody
from .turn import Turn
from .validation_error_body import ValidationErrorBody
from .validation_error_item import ValidationErrorItem

__all__ = (
    "AddMemoryAccepted",
    "AddMemoryAcceptedStatus",
    "AddMemoryRequest",
    "AddMemorySkipped",
    "AddMemorySkippedReason",
    "AddMemorySkippedStatus",
    "AddTurnRequest",
    "AddTurnRequestRole",
    "AddTurnResponse",
    "AddTurnResponseProcessingStatus",
    "AddTurnResponseStatus",
    "AppendHistoryRequest",
    "AppendHistoryResponse",
    "AppendHistoryResponseStatus",
    "BatchUpdateItem",
    "BatchUpdateRequest",
    "BatchUpdateResponse",
    "BatchUpdateResult",
    "BatchUpdateResultStatus",
    "BulkAddItem",
    "BulkAddRequest",
    "BulkAddResponse",
    "BulkAddResult",
    "BulkAddResultStatus",
    "DeleteHistoryByIds",
    "DeleteHistoryBySession",
    "DeleteHistoryResponse",
    "DeleteStateRequest",
    "DeleteStateResponse",
    "EncoderChoice",
    "EncoderChoiceChosenBy",
    "EncoderChoiceGraph",
    "EncoderTiming",
    "EncoderTimingGraph",
    "ErrorBody",
    "FeedbackRequest",
    "FeedbackRequestSignal",
    "FeedbackResponse",
    "FeedbackSummary",
    "FeedbackSummarySignalCounts",
    "FeedbackTrend",
    "FeedbackTrendMomentum",
    "ForgetByFilter",
    "ForgetByIds",
    "ForgetFilters",
    "GetStateRequest",
    "GetStateResponse",
    "Health",
    "HealthStatus",
    "HistoryTurn",
    "LimitExceeded",
    "LimitExceededError",
    "ListedMemory",
    "ListHistoryRequest",
    "ListHistoryResponse",
    "ListStateNamespacesRequest",
    "ListStateRequest",
    "Memory",
    "MemoryExport",
    "MemoryHistory",
    "MemoryList",
    "MemoryQueryFilters",
    "MemoryQueryRequest",
    "MemoryQueryResponse",
    "MemoryRevision",
    "MemoryRevisionDiff",
    "MemoryRevisionEvent",
    "MemoryStatus",
    "MemoryStatusProcessingStatus",
    "MemoryUpdate",
    "Metadata",
    "Project",
    "PutStateManyRequest",
    "PutStateManyResponse",
    "PutStateRequest",
    "PutStateRequestValue",
    "PutStateResponse",
    "PutStateResponseStatus",
    "QueryRequest",
    "QueryResponse",
    "Readiness",
    "ReadinessModel",
    "ReadinessStatus",
    "RecalledMemory",
    "RecallRequest",
    "RecallResponse",
    "SearchStateRequest",
    "StateItem",
    "StateItemValue",
    "StateList",
    "StateNamespaces",
    "StoredMetadata",
    "TooManyRequestsBody",
    "Turn",
    "ValidationErrorBody",
    "ValidationErrorItem",
)
