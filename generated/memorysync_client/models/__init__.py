"""Contains all the data models used in inputs/outputs"""

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
from .delete_history_by_ids import DeleteHistoryByIds
from .delete_history_by_session import DeleteHistoryBySession
from .delete_history_response import DeleteHistoryResponse
from .delete_state_request import DeleteStateRequest
from .delete_state_response import DeleteStateResponse
from .error_body import ErrorBody
from .forget_request import ForgetRequest
from .forget_response import ForgetResponse
from .get_state_request import GetStateRequest
from .get_state_response import GetStateResponse
from .history_turn import HistoryTurn
from .limit_exceeded import LimitExceeded
from .limit_exceeded_error import LimitExceededError
from .list_history_request import ListHistoryRequest
from .list_history_response import ListHistoryResponse
from .list_state_namespaces_request import ListStateNamespacesRequest
from .list_state_request import ListStateRequest
from .memory import Memory
from .memory_list import MemoryList
from .memory_status import MemoryStatus
from .memory_status_processing_status import MemoryStatusProcessingStatus
from .metadata import Metadata
from .project import Project
from .put_state_request import PutStateRequest
from .put_state_request_value import PutStateRequestValue
from .put_state_response import PutStateResponse
from .put_state_response_status import PutStateResponseStatus
from .query_request import QueryRequest
from .query_response import QueryResponse
from .recall_request import RecallRequest
from .recall_response import RecallResponse
from .recalled_memory import RecalledMemory
from .search_state_request import SearchStateRequest
from .state_item import StateItem
from .state_item_value import StateItemValue
from .state_list import StateList
from .state_namespaces import StateNamespaces
from .stored_memory import StoredMemory
from .stored_metadata import StoredMetadata
from .too_many_requests_body import TooManyRequestsBody
from .turn import Turn
from .validation_error_body import ValidationErrorBody
from .validation_error_item import ValidationErrorItem

__all__ = (
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
    "DeleteHistoryByIds",
    "DeleteHistoryBySession",
    "DeleteHistoryResponse",
    "DeleteStateRequest",
    "DeleteStateResponse",
    "ErrorBody",
    "ForgetRequest",
    "ForgetResponse",
    "GetStateRequest",
    "GetStateResponse",
    "HistoryTurn",
    "LimitExceeded",
    "LimitExceededError",
    "ListHistoryRequest",
    "ListHistoryResponse",
    "ListStateNamespacesRequest",
    "ListStateRequest",
    "Memory",
    "MemoryList",
    "MemoryStatus",
    "MemoryStatusProcessingStatus",
    "Metadata",
    "Project",
    "PutStateRequest",
    "PutStateRequestValue",
    "PutStateResponse",
    "PutStateResponseStatus",
    "QueryRequest",
    "QueryResponse",
    "RecalledMemory",
    "RecallRequest",
    "RecallResponse",
    "SearchStateRequest",
    "StateItem",
    "StateItemValue",
    "StateList",
    "StateNamespaces",
    "StoredMemory",
    "StoredMetadata",
    "TooManyRequestsBody",
    "Turn",
    "ValidationErrorBody",
    "ValidationErrorItem",
)
